import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import type { RequestHandler } from 'express';

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

/**
 * Runs before the SDK's authorization handler: once the client and redirect URI are known to be good,
 * a faulty request is sent back to the client with a short `error_description` and the request's
 * `state`. Anything else (unknown client, bad redirect URI) goes on to the SDK, which answers 400.
 */
export function checkAuthorizationRequest(clients: OAuthRegisteredClientsStore): RequestHandler {
  return async (req, res, next) => {
    const params = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
    const failure = requestError(params ?? {});
    const clientId = params?.client_id;
    if (!failure || typeof clientId !== 'string') return next();
    const client = await clients.getClient(clientId);
    const given = params.redirect_uri;
    const redirectUri =
      typeof given === 'string'
        ? client?.redirect_uris.find((registered) => redirectUriMatches(given, registered)) && given
        : client?.redirect_uris.length === 1
          ? client.redirect_uris[0]
          : undefined;
    if (!redirectUri) return next();
    const target = new URL(redirectUri);
    target.searchParams.set('error', failure.error);
    target.searchParams.set('error_description', failure.description);
    if (typeof params.state === 'string') target.searchParams.set('state', params.state);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, target.href);
  };
}
