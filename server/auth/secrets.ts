import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Secrets and passwords are stored only as argon2id hashes; verify() compares in constant time. */
export const hashSecret = (secret: string): Promise<string> => hash(secret);

/** Codes, refresh tokens and client secrets are long random strings: a SHA-256 digest is enough to
 *  store them (argon2 is for guessable passwords), and it keeps the token endpoint fast. */
export const digest = (value: string): string => createHash('sha256').update(value).digest('base64url');

export const verifySecret = async (storedHash: string, secret: string): Promise<boolean> => {
  try {
    return await verify(storedHash, secret);
  } catch {
    return false;
  }
};

export const newClientSecret = (): string => `sfs_${randomBytes(32).toString('base64url')}`;
