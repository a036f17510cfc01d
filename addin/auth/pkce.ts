/** RFC 7636 PKCE (S256) and the random `state`, with the browser's Web Crypto. */

export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function randomToken(byteLength = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(byteLength)));
}

export async function createPkcePair(): Promise<{ verifier: string; challenge: string }> {
  // Web Crypto exists only in secure contexts; Outlook always loads add-ins over HTTPS.
  if (!globalThis.crypto?.subtle) throw new Error('Sign-in needs a secure (HTTPS) connection to Sitefile.');
  const verifier = randomToken(48);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64Url(new Uint8Array(digest)) };
}
