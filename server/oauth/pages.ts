/** Server-rendered sign-in and consent pages: plain HTML forms, labelled inputs, no scripts. */

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const hidden = (fields: Record<string, string | undefined>) =>
  Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n      ');

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Sitefile</title>
  <style>
    body { font-family: system-ui, sans-serif; margin: 0; background: #f5f5f5; color: #1b1b1b; }
    main { max-width: 26rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 8px; }
    label { display: block; margin-top: 1rem; font-weight: 600; }
    input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem; margin-top: .25rem; border: 1px solid #6b6b6b; border-radius: 4px; }
    button { margin-top: 1.5rem; padding: .6rem 1.2rem; font-size: 1rem; border-radius: 4px; border: 1px solid #0f5c8c; background: #0f5c8c; color: #fff; }
    button.secondary { background: #fff; color: #0f5c8c; margin-left: .5rem; }
    :focus-visible { outline: 3px solid #ffb000; outline-offset: 2px; }
    .error { color: #a4000f; border-left: 4px solid #a4000f; padding-left: .75rem; }
    h1:focus { outline: none; }
    h1:focus-visible { outline: 3px solid #ffb000; }
    /* The answer stays in view in a short window (Outlook's sign-in dialog): the details scroll under it. */
    .answer { position: sticky; bottom: 0; background: #fff; padding-bottom: 1rem; border-top: 1px solid #d1d1d1; }
    .answer button { margin-top: 1rem; }
    @media (max-width: 480px) {
      main { margin: 0; padding: 1rem; border-radius: 0; min-height: 100vh; box-sizing: border-box; }
      h1 { font-size: 1.3rem; margin-top: 0; }
    }
  </style>
</head>
<body>
  <main>
    ${body}
  </main>
</body>
</html>
`;

/** The client as a person is shown it: a self-registered client's name is its own claim, not ours. */
export interface ClientShown {
  /** `client_name`, or undefined when it gave none. */
  name: string | undefined;
  /** One of our own apps (first-party), whose name is trusted. */
  verified: boolean;
  /** Where the browser goes after the person answers (the redirect URI's host). */
  redirectHost: string;
}

/** "Sitefile for Outlook", or "an unverified application calling itself “…”". */
const clientLabel = (client: ClientShown) =>
  client.verified && client.name
    ? escapeHtml(client.name)
    : `an unverified application${client.name ? ` calling itself “${escapeHtml(client.name)}”` : ''}`;

const capitalized = (html: string) => html.charAt(0).toUpperCase() + html.slice(1);

export interface SignInPage {
  action: string;
  client: ClientShown;
  csrf: string;
  oauthParams: Record<string, string | undefined>;
  email?: string;
  error?: string;
}

export const signInPage = (page: SignInPage) =>
  layout(
    'Sign in',
    `<h1>Sign in to Sitefile</h1>
    <p>${capitalized(clientLabel(page.client))} wants to connect to your Sitefile account.</p>
    ${page.error ? `<p class="error" role="alert" id="signin-error">${escapeHtml(page.error)}</p>` : ''}
    <form method="post" action="${escapeHtml(page.action)}" novalidate>
      ${hidden({ ...page.oauthParams, step: 'sso', csrf: page.csrf })}
      <label for="sso-email">Work e-mail</label>
      <input id="sso-email" name="email" type="email" autocomplete="username" value="${escapeHtml(page.email ?? '')}">
      <button type="submit">Sign in with your organization</button>
    </form>
    <h2>Or sign in with your Sitefile password</h2>
    <form method="post" action="${escapeHtml(page.action)}" novalidate>
      ${hidden({ ...page.oauthParams, step: 'signin', csrf: page.csrf })}
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(page.email ?? '')}"${page.error ? ' aria-describedby="signin-error" aria-invalid="true"' : ''}>
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required${page.error ? ' aria-describedby="signin-error" aria-invalid="true"' : ''}>
      <button type="submit">Sign in</button>
    </form>`,
  );

export interface ConsentPage {
  action: string;
  client: ClientShown;
  userName: string;
  userEmail: string;
  /** What the client will be able to do, one line each. */
  access: string[];
  organizations: string[];
  csrf: string;
  ticket: string;
  oauthParams: Record<string, string | undefined>;
}

export const consentPage = (page: ConsentPage) =>
  layout(
    'Allow access',
    // The question takes the focus, not Allow: Enter must not grant an application the person has not read about.
    `<h1 tabindex="-1" autofocus>Allow ${page.client.verified ? clientLabel(page.client) : 'an unverified application'} to access Sitefile?</h1>
    ${
      page.client.verified
        ? ''
        : `<p class="error" role="note">${page.client.name ? `It calls itself “${escapeHtml(page.client.name)}”, a name Sitefile has not verified.` : 'It gave no name.'} Allow it only if you started this sign-in yourself.</p>`
    }
    <p>Signed in as ${escapeHtml(page.userName)} (${escapeHtml(page.userEmail)}).</p>
    <p>It will be able to act as you and:</p>
    <ul>
      ${page.access.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n      ')}
    </ul>
    <p>Organizations it will reach: ${page.organizations.length > 0 ? page.organizations.map(escapeHtml).join(', ') : 'none (your account has no organization memberships)'}.</p>
    <p>After you answer, you will be sent to <strong>${escapeHtml(page.client.redirectHost)}</strong>.</p>
    <form method="post" action="${escapeHtml(page.action)}" class="answer">
      ${hidden({ ...page.oauthParams, step: 'consent', csrf: page.csrf, ticket: page.ticket })}
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
    </form>`,
  );

export interface AuthorizationErrorPage {
  client: ClientShown;
  error: string;
  description: string;
}

/** A faulty authorization request of a client we have not verified: shown here, not sent to its redirect URI
 *  (RFC 9700 §4.11.2: no automatic redirect to a URI nobody vouched for). */
export const authorizationErrorPage = (page: AuthorizationErrorPage) =>
  layout(
    'Sign-in request refused',
    `<h1>This sign-in request cannot be completed</h1>
    <p class="error" role="alert">${escapeHtml(page.description)} (${escapeHtml(page.error)})</p>
    <p>${capitalized(clientLabel(page.client))} asked to be sent back to <strong>${escapeHtml(page.client.redirectHost)}</strong>.
    Sitefile has not verified this application, so you were not sent there. You can close this window.</p>`,
  );

/** A single sign-on the callback refused: why, in a sentence, and what to do. */
export const ssoRefusedPage = (reason: string) =>
  layout(
    'Sign-in refused',
    `<h1>Single sign-on did not complete</h1>
    <p class="error" role="alert" id="sso-error">${escapeHtml(reason)}</p>
    <p>Close this window and sign in again, or ask your organization admin.</p>`,
  );
