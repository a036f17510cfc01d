import { createHash } from 'node:crypto';
import type { Response } from 'express';

/** A weak validator of a JSON body (weak: the same for its gzip and brotli forms, which are other bytes). */
export const jsonEtag = (body: string): string => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

/**
 * Sends `value` as JSON with its ETag. Express's send answers 304 with no body when the request's If-None-Match
 * names it. `private, no-cache`: a browser may keep the answer but asks again each time (one 304 when unchanged);
 * a shared cache never keeps a tenant's data.
 */
export function sendJsonWithEtag(res: Response, value: unknown): void {
  const body = JSON.stringify(value);
  res.setHeader('ETag', jsonEtag(body));
  res.setHeader('Cache-Control', 'private, no-cache');
  res.type('json').send(body);
}
