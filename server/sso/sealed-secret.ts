import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { ApiError } from '../errors.js';

// The identity provider's client secret must be sent to it again, so it is kept sealed rather than hashed:
// AES-256-GCM under a key of its own (`SECRETS_KEYS`), so that rotating the token signing key leaves it readable.
// A sealed value names the key it was sealed with: `<key id>:<iv>.<tag>.<body>`; a value without a key id was
// sealed by an earlier release under the key derived from the signing secret, which stays an opening key.

/** The keys secrets are opened with; the first one seals. */
export interface SealingKeys {
  keys: { id: string; key: Buffer }[];
}

const LEGACY_ID = 'jwt';

/** Key id: the start of the key's digest, so that an operator can name keys in any order without ids of their own. */
const keyId = (key: Buffer) => createHash('sha256').update(key).digest('base64url').slice(0, 8);

/**
 * `SECRETS_KEYS` in order (the first seals, any opens), then the key derived from the signing secret: it seals
 * when no key is configured (installs from before `SECRETS_KEYS` keep working) and opens what was sealed under it.
 */
export function sealingKeys(configured: Buffer[], signingSecret: Buffer): SealingKeys {
  const derived = Buffer.from(hkdfSync('sha256', signingSecret, '', 'sitefile sso client secret', 32));
  return { keys: [...configured.map((key) => ({ id: keyId(key), key })), { id: LEGACY_ID, key: derived }] };
}

export function seal(keys: SealingKeys, plain: string): string {
  const { id, key } = keys.keys[0]!;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${id}:${[iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.')}`;
}

const sealedKeyId = (sealed: string) => (sealed.includes(':') ? sealed.slice(0, sealed.indexOf(':')) : LEGACY_ID);

/** Whether the value is sealed under another key than the first: saving it again re-seals it. */
export const sealedUnderOldKey = (keys: SealingKeys, sealed: string) => sealedKeyId(sealed) !== keys.keys[0]!.id;

/** The secret; a value whose key is no longer configured (or that does not open) is a 503 naming the remedy. */
export function unseal(keys: SealingKeys, sealed: string): string {
  const id = sealedKeyId(sealed);
  const entry = keys.keys.find((k) => k.id === id);
  try {
    if (!entry) throw new Error(`key ${id} is not configured`);
    const [iv, tag, body] = sealed
      .slice(sealed.indexOf(':') + 1)
      .split('.')
      .map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', entry.key, iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
  } catch {
    throw new ApiError(
      'service_unavailable',
      "The identity provider's client secret cannot be read with this server's SECRETS_KEYS (the key it was sealed " +
        'with is no longer configured). An organization admin must enter the client secret again.',
    );
  }
}
