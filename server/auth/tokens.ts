import { createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Clock } from '../clock.js';
import type { KeyRing } from './keys.js';

export type TokenKind = 'client' | 'user';

export interface TokenClaims {
  sub: string;
  typ: TokenKind;
  jti: string;
  /** The sign-in (grant) the token belongs to: revoking it refuses the token. Absent on operator tokens. */
  gid?: string;
  iat: number;
  exp: number;
}

export interface TokenService {
  sign(
    subject: string,
    kind: TokenKind,
    options?: { lifetimeSeconds?: number; audience?: string; grant?: string },
  ): {
    token: string;
    expiresIn: number;
  };
  /** The claims of a valid token for `audience`, or undefined for anything else. */
  verify(token: string, audience?: string): TokenClaims | undefined;
  readonly issuer: string;
  readonly apiAudience: string;
}

export const CLIENT_TOKEN_LIFETIME_SECONDS = 3600;
const VERIFIED_CACHE_LIMIT = 10_000;

export function createTokenService(options: { keys: KeyRing; clock: Clock; publicUrl: string }): TokenService {
  const { keys, clock } = options;
  const issuer = options.publicUrl;
  const apiAudience = `${options.publicUrl}/v1`;
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  // jsonwebtoken given a string first tries to parse it as a PEM key and throws: about a millisecond per call.
  // A KeyObject skips that (tens of microseconds per verification), so key objects are made once per key.
  const keyObjects = new Map<string, KeyObject>();
  const keyObject = (secret: string) => {
    let key = keyObjects.get(secret);
    if (!key) {
      key = createSecretKey(Buffer.from(secret));
      keyObjects.set(secret, key);
    }
    return key;
  };
  /** The claims and the signing key's id of a token, after jsonwebtoken's complete check. */
  const verifyFully = (token: string, audience: string): { claims: TokenClaims; kid: string } | undefined => {
    const decoded = jwt.decode(token, { complete: true });
    const kid = decoded?.header.kid;
    const secret = kid ? keys.byId(kid) : undefined;
    if (!kid || !secret) return undefined;
    try {
      const claims = jwt.verify(token, keyObject(secret), {
        algorithms: ['HS256'],
        issuer,
        audience,
        clockTimestamp: nowSeconds(),
      }) as jwt.JwtPayload;
      if (typeof claims.sub !== 'string' || (claims.typ !== 'client' && claims.typ !== 'user')) return undefined;
      if (claims.gid !== undefined && typeof claims.gid !== 'string') return undefined;
      return { claims: claims as TokenClaims, kid };
    } catch {
      return undefined;
    }
  };
  const verified = new Map<string, { claims: TokenClaims; kid: string }>();
  return {
    issuer,
    apiAudience,
    sign(subject, kind, { lifetimeSeconds = CLIENT_TOKEN_LIFETIME_SECONDS, audience = apiAudience, grant } = {}) {
      const iat = nowSeconds();
      const payload = { typ: kind, iat, exp: iat + lifetimeSeconds, ...(grant ? { gid: grant } : {}) };
      const token = jwt.sign(payload, keyObject(keys.current.secret), {
        algorithm: 'HS256',
        keyid: keys.current.id,
        subject,
        issuer,
        audience,
        jwtid: randomUUID(),
      });
      return { token, expiresIn: lifetimeSeconds };
    },
    verify(token, audience = apiAudience) {
      // A token verified before is only re-checked for expiry and for its key still being in the ring:
      // jsonwebtoken's full check costs ~0.3 ms, a third of a cheap API request's own work.
      const cacheKey = `${audience} ${token}`;
      const known = verified.get(cacheKey);
      if (known) {
        if (known.claims.exp > nowSeconds() && keys.byId(known.kid)) return known.claims;
        verified.delete(cacheKey);
        return undefined;
      }
      const claims = verifyFully(token, audience);
      if (claims) {
        if (verified.size >= VERIFIED_CACHE_LIMIT) verified.delete(verified.keys().next().value!);
        verified.set(cacheKey, claims);
      }
      return claims?.claims;
    },
  };
}
