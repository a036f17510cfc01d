import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';

/**
 * NUL characters are refused at the edge, for every route: PostgreSQL cannot store them in text or jsonb, so
 * one that reached a query would be a 500. Node's HTTP parser already refuses a raw NUL in the request line
 * or a header (answered by `answerClientError`); what remains is the percent-encoded form in the URL (path
 * parameters and query values, `%00`) and the bodies the app parses (JSON `\u0000`, form `%00`). Filed
 * e-mail (message/rfc822) is not refused: its text is stored with NULs removed (server/filing/message.ts).
 */
const nulRefused = (where: string) =>
  new ApiError('bad_request', `NUL characters are not accepted in the ${where}`, {
    details: [{ path: where, message: 'contains a NUL character (U+0000)' }],
  });

/** `%00` anywhere in the URL (the only way a NUL reaches a path parameter or a query value). */
export const refuseNulInUrl: RequestHandler = (req, _res, next) => {
  next(req.url.includes('%00') ? nulRefused('URL') : undefined);
};

const ESCAPED_NUL = Buffer.from('\\u0000');
const BACKSLASH = 0x5c;

/** Whether a JSON text holds `\u0000` as an escape (not a literal backslash followed by `u0000`). */
function hasEscapedNul(json: Buffer): boolean {
  for (let at = json.indexOf(ESCAPED_NUL); at !== -1; at = json.indexOf(ESCAPED_NUL, at + 1)) {
    let backslashes = 0;
    while (at - backslashes - 1 >= 0 && json[at - backslashes - 1] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return true;
  }
  return false;
}

/**
 * body-parser `verify` for JSON bodies: scans the raw bytes before they are parsed. JSON is UTF-8
 * (RFC 8259), so another declared charset is refused rather than decoded for the scan.
 */
export function refuseNulInJson(_req: IncomingMessage, _res: unknown, body: Buffer, encoding: string | null): void {
  if (encoding !== null && encoding !== 'utf-8') {
    throw new ApiError('unsupported_media_type', 'JSON bodies must be UTF-8');
  }
  if (hasEscapedNul(body)) throw nulRefused('body');
}

/** body-parser `verify` for form bodies (`application/x-www-form-urlencoded`): `%00` or a raw NUL byte. */
export function refuseNulInForm(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  if (body.includes(0) || body.includes('%00')) throw nulRefused('body');
}
