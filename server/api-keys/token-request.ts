import type { Request } from 'express';

/** What a client-credentials token request carries, once read from the body and the Basic header. */
export interface TokenRequest {
  clientId: string;
  clientSecret: string;
  /** HTTP Basic was used: a 401 must then carry `WWW-Authenticate: Basic` (RFC 6749 §5.2). */
  basic: boolean;
}

/** An OAuth error answer (RFC 6749 §5.2): `error` code and one short sentence. */
export interface OAuthFailure {
  status: 400 | 401;
  error: 'invalid_request' | 'invalid_client' | 'unsupported_grant_type';
  description: string;
}

const invalidRequest = (description: string): OAuthFailure => ({ status: 400, error: 'invalid_request', description });

/** `Authorization: Basic base64(urlencoded id ":" urlencoded secret)` (RFC 6749 §2.3.1). */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | 'malformed' | undefined {
  if (!header || !/^Basic\s/i.test(header)) return undefined;
  const match = header.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return 'malformed';
  }
}

/** The token request's body fields, already checked against its content type's declared schema by the mount. */
export type TokenRequestBody = Partial<Record<'grant_type' | 'client_id' | 'client_secret', string>>;

/**
 * Reads a token request: JSON `{client_id, client_secret[, grant_type]}`, the OAuth form (grant_type
 * required), with the client's credentials in the body (client_secret_post) or in HTTP Basic
 * (client_secret_basic) but not both. Every failure is an OAuthFailure, never the API's error shape.
 */
export function readTokenRequest(req: Request, body: TokenRequestBody): TokenRequest | OAuthFailure {
  const basic = basicCredentials(req.headers.authorization);
  if (basic === 'malformed') return invalidRequest('The Basic authorization header is malformed.');
  if (basic && (body.client_secret !== undefined || (body.client_id && body.client_id !== basic.id))) {
    return invalidRequest('Use one client authentication method, not both.');
  }
  if (body.grant_type && body.grant_type !== 'client_credentials') {
    return {
      status: 400,
      error: 'unsupported_grant_type',
      description: 'Only grant_type=client_credentials is supported',
    };
  }
  const clientId = basic?.id ?? body.client_id;
  const clientSecret = basic?.secret ?? body.client_secret;
  if (!clientId) return invalidRequest('client_id is required.');
  if (!clientSecret) return invalidRequest('client_secret is required.');
  return { clientId, clientSecret, basic: Boolean(basic) };
}
