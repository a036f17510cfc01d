// The identity provider's discovery document and signing keys, kept between sign-ins instead of fetched for each.
import { LRUCache } from 'lru-cache';
import type * as oidc from 'openid-client';

/** Providers (organization, issuer, client, secret) one instance keeps; the least recently used go first. */
const MAX_PROVIDERS = 500;
/** How long a provider's documents are reused: a changed discovery document (new endpoints) is seen this late. */
const TTL_MS = 10 * 60 * 1000;

interface Documents {
  discovery?: { url: string; body: string; tokenEndpoint?: string; jwksUri?: string };
  jwks?: { body: string; kids: Set<string> };
}

const json = (body: string) => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });

/** The key id in a JWT's protected header (the ID token our token request brought back). */
function kidOf(jwt: unknown): string | undefined {
  if (typeof jwt !== 'string') return undefined;
  try {
    const header = JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString());
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * openid-client discovers the provider and fetches its key set for every Configuration; a fresh Configuration per
 * sign-in (so that a key the provider rotated in is looked up at once) would fetch both every time. This fetch,
 * given to openid-client, answers both from what an earlier sign-in fetched: the discovery document for ten
 * minutes, the key set as long as it holds the key id of the ID token being checked — an unknown key id (a rotated
 * key) fetches it again, so rotation is followed on the very sign-in that meets the new key.
 */
export class ProviderDocuments {
  private readonly entries = new LRUCache<string, Documents>({ max: MAX_PROVIDERS, ttl: TTL_MS });

  /** The fetch for one sign-in step with the provider `key` names (a new key when its settings change). */
  fetchFor(key: string): oidc.CustomFetch {
    let idTokenKid: string | undefined;
    return async (url, options) => {
      const kept = this.entries.get(key) ?? {};
      const get = options.method === 'GET';
      if (get && url.endsWith('/.well-known/openid-configuration')) {
        if (kept.discovery?.url === url) return json(kept.discovery.body);
        return this.keep(url, options, (body) => {
          const document = JSON.parse(body) as { token_endpoint?: string; jwks_uri?: string };
          // A new document starts over: its keys may be elsewhere.
          this.entries.set(key, {
            discovery: { url, body, tokenEndpoint: document.token_endpoint, jwksUri: document.jwks_uri },
          });
        });
      }
      if (get && url === kept.discovery?.jwksUri) {
        if (kept.jwks && idTokenKid !== undefined && kept.jwks.kids.has(idTokenKid)) return json(kept.jwks.body);
        return this.keep(url, options, (body) => {
          const keys = (JSON.parse(body) as { keys?: { kid?: string }[] }).keys ?? [];
          const kids = new Set(keys.flatMap((k) => (k.kid ? [k.kid] : [])));
          this.entries.set(key, { ...(this.entries.get(key) ?? kept), jwks: { body, kids } });
        });
      }
      // openid-client types its body wider (Uint8Array<ArrayBufferLike>) than BodyInit; fetch sends it as it is.
      const response = await fetch(url, options as RequestInit);
      if (url === kept.discovery?.tokenEndpoint && response.ok) {
        idTokenKid = kidOf(((await response.clone().json()) as { id_token?: unknown }).id_token);
      }
      return response;
    };
  }

  /** Fetches a document and keeps it (`store`) when the provider answered it. */
  private async keep(url: string, options: oidc.CustomFetchOptions, store: (body: string) => void) {
    const response = await fetch(url, options as RequestInit);
    if (!response.ok) return response;
    const body = await response.text();
    try {
      store(body);
    } catch {
      // Not JSON: openid-client refuses it with its own message; nothing is kept.
    }
    return new Response(body, {
      status: response.status,
      headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' },
    });
  }
}

declare module '../context.js' {
  interface AppCaches {
    /** Identity providers' discovery documents and key sets (single sign-on). */
    ssoProviders: ProviderDocuments;
  }
}
