import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** HMAC signing keys by `kid`. The current key signs; every key in the ring still verifies, so a
 *  rotation never invalidates tokens that are still within their lifetime. */
export interface KeyRing {
  current: { id: string; secret: string };
  byId(kid: string): string | undefined;
  rotate(): { id: string; secret: string };
}

interface StoredRing {
  current: string;
  keys: Record<string, string>;
}

const newKey = () => ({ id: randomUUID(), secret: randomBytes(48).toString('base64url') });

function ringFrom(stored: StoredRing, persist: (ring: StoredRing) => void): KeyRing {
  const ring: KeyRing = {
    current: { id: stored.current, secret: stored.keys[stored.current]! },
    byId: (kid) => stored.keys[kid],
    rotate() {
      const key = newKey();
      stored.keys[key.id] = key.secret;
      stored.current = key.id;
      ring.current = key;
      persist(stored);
      return key;
    },
  };
  return ring;
}

/** Keys given by env win; otherwise generated on first start and kept in `dataDir/keys/jwt.json`. */
export function loadKeyRing(options: { dataDir: string | 'memory'; fixed?: { id: string; secret: string } }): KeyRing {
  if (options.fixed) {
    return ringFrom({ current: options.fixed.id, keys: { [options.fixed.id]: options.fixed.secret } }, () => {});
  }
  if (options.dataDir === 'memory') {
    const key = newKey();
    return ringFrom({ current: key.id, keys: { [key.id]: key.secret } }, () => {});
  }
  const file = path.join(options.dataDir, 'keys', 'jwt.json');
  const persist = (ring: StoredRing) => {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(`${file}.tmp`, JSON.stringify(ring, null, 2), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  };
  try {
    return ringFrom(JSON.parse(readFileSync(file, 'utf8')) as StoredRing, persist);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const key = newKey();
    const stored = { current: key.id, keys: { [key.id]: key.secret } };
    persist(stored);
    return ringFrom(stored, persist);
  }
}
