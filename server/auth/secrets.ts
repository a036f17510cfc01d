import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Secrets and passwords are stored only as argon2id hashes; verify() compares in constant time. */
export const hashSecret = (secret: string): Promise<string> => hash(secret);

export const verifySecret = async (storedHash: string, secret: string): Promise<boolean> => {
  try {
    return await verify(storedHash, secret);
  } catch {
    return false;
  }
};

export const newClientSecret = (): string => `sfs_${randomBytes(32).toString('base64url')}`;
