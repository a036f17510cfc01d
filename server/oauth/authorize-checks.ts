import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { RequestHandler, Response } from 'express';
import { isVerifiedClient } from './first-party.js';
import { authorizationErrorPage, type ClientShown } from './pages.js';

/** Which error a well-addressed authorization request gets, if any (RFC 6749 §4.1.2.1, RFC 7636 §4.2). */
function requestError(params: Record<string, unknown>): { error: string; description: string } | undefined {
  const responseType = params.response_type;
  if (responseType !== 'code') {
    return responseType === undefined
      ? { error: 'invalid_request', description: 'response_type is required.' }
      : { error: 'unsupported_response_type', description: 'Only response_type=code is supported.' };
  }
  const challenge = params.code_challenge;
  if (typeof challenge !== 'string' || !/^[A-Za-z0-9\-._~]{43,128}$/.test(challenge)) {
    return { error: 'invalid_request', description: 'code_challenge must be 43 to 128 unreserved characters.' };
  }
  if (params.code_challenge_method !== 'S256') {
    return { error: 'invalid_request', description: 'code_challenge_method must be S256.' };
  }
  return undefined;
}

/** The registered redirect URI the request names (or the only one), as the SDK's handler will pick it. */
function redirectUriOf(client: OAuthClientInformationFull, given: unknown): string | undefined {
  if (typeof given === 'string')
    return client.redirect_uris.find((registered) => redirectUriMatches(given, registered)) && given;
  return client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined;
}

/** How the sign-in pages show a client (`pages.ts`). */
export const clientShown = (client: OAuthClientInformationFull, redirectUri: string): ClientShown => ({
  name: client.client_name?.trim() || undefined,
  verified: isVerifiedClient(client.client_id),
  redirectHost: new URL(redirectUri).host,
});

const PERSON_ANSWERED = 'oauthPersonAnswered';

/** The consent step calls this before sending the person back: they saw the redirect host and chose. */
export const markPersonAnswered = (res: Response) => {
  res.locals[PERSON_ANSWERED] = true;
};

/**
 * Runs before the SDK's authorization handler. Once the client and redirect URI are known to be good, a faulty
 * request of one of our own (verified) clients is sent back to it with a short `error_description` and the
 * request's `state`. Any other client registered itself with a redirect URI nobody vouched for: its faulty
 * requests get an error page naming the redirect host instead of a redirect (RFC 9700 §4.11.2), and so do the
 * errors the SDK's handler would redirect (scope, resource) — only the person's own answer on the consent page
 * sends the browser there. Unknown clients and bad redirect URIs go on to the SDK, which answers 400.
 */
export function checkAuthorizationRequest(clients: OAuthRegisteredClientsStore): RequestHandler {
  return async (req, res, next) => {
    const params = ((req.method === 'POST' ? req.body : req.query) ?? {}) as Record<string, unknown>;
    const client = typeof params.client_id === 'string' ? await clients.getClient(params.client_id) : undefined;
    const redirectUri = client && redirectUriOf(client, params.redirect_uri);
    if (!client || !redirectUri) return next();
    const shown = clientShown(client, redirectUri);
    const showError = (error: string, description: string) => {
      res.setHeader('Cache-Control', 'no-store');
      res
        .status(400)
        .type('html')
        .send(authorizationErrorPage({ client: shown, error, description }));
    };
    if (!shown.verified) {
      const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
      res.redirect = ((...args: [number, string] | [string]) => {
        const [status, url] = args.length === 2 ? args : [302, args[0]];
        const target = new URL(url);
        const error = target.searchParams.get('error');
        if (error && !res.locals[PERSON_ANSWERED])
          return showError(error, target.searchParams.get('error_description') ?? 'The request is invalid.');
        return redirect(status, url);
      }) as Response['redirect'];
    }
    const failure = requestError(params);
    if (!failure) return next();
    if (!shown.verified) return showError(failure.error, failure.description);
    const target = new URL(redirectUri);
    target.searchParams.set('error', failure.error);
    target.searchParams.set('error_description', failure.description);
    if (typeof params.state === 'string') target.searchParams.set('state', params.state);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, target.href);
  };
}
