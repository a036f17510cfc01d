import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// The identity provider's client secret must be sent to it again, so it is kept sealed rather than hashed: AES-256-GCM
// under a key derived from the server's signing secret (one secret to configure; a database dump alone opens nothing).
const sealingKey = (secret: Buffer) => Buffer.from(hkdfSync('sha256', secret, '', 'sitefile sso client secret', 32));

export function seal(secret: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

export function unseal(secret: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
}
