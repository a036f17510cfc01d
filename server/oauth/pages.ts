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
  </style>
</head>
<body>
  <main>
    ${body}
  </main>
</body>
</html>
`;

export interface SignInPage {
  action: string;
  clientName: string;
  csrf: string;
  oauthParams: Record<string, string | undefined>;
  email?: string;
  error?: string;
}

export const signInPage = (page: SignInPage) =>
  layout(
    'Sign in',
    `<h1>Sign in to Sitefile</h1>
    <p>${escapeHtml(page.clientName)} wants to connect to your Sitefile account.</p>
    ${page.error ? `<p class="error" role="alert" id="signin-error">${escapeHtml(page.error)}</p>` : ''}
    <form method="post" action="${escapeHtml(page.action)}" novalidate>
      ${hidden({ ...page.oauthParams, step: 'signin', csrf: page.csrf })}
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(page.email ?? '')}"${page.error ? ' aria-describedby="signin-error" aria-invalid="true"' : ''}>
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required${page.error ? ' aria-describedby="signin-error" aria-invalid="true"' : ''}>
      <button type="submit">Sign in</button>
    </form>`,
  );

export interface ConsentPage {
  action: string;
  clientName: string;
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
    `<h1>Allow ${escapeHtml(page.clientName)} to access Sitefile?</h1>
    <p>Signed in as ${escapeHtml(page.userName)} (${escapeHtml(page.userEmail)}).</p>
    <p>${escapeHtml(page.clientName)} will be able to act as you and:</p>
    <ul>
      ${page.access.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n      ')}
    </ul>
    <p>Organizations it will reach: ${page.organizations.length > 0 ? page.organizations.map(escapeHtml).join(', ') : 'none (your account has no organization memberships)'}.</p>
    <form method="post" action="${escapeHtml(page.action)}">
      ${hidden({ ...page.oauthParams, step: 'consent', csrf: page.csrf, ticket: page.ticket })}
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
    </form>`,
  );
