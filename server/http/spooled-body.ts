import { Readable } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import { SpillBuffer } from '../db/spill.js';
import { ApiError } from '../errors.js';

/** The bodies `spoolBody` read (and their length), until their request is parsed. */
const spooled = new WeakMap<Request, { spill: SpillBuffer; length: number }>();

const tooLarge = () => new ApiError('payload_too_large', 'Request body too large');

/**
 * Reads the request's whole body as sent (at most `limit` bytes: 413 past them, at once when Content-Length says
 * so) into a SpillBuffer: 1 MB in memory, the rest in an unnamed temporary file. A slow or stalled upload then
 * costs a socket and a file, not a share of memory or a slot of work; it is cut by HTTP_REQUEST_TIMEOUT_MS.
 */
export const spoolBody =
  (limit: number): RequestHandler =>
  async (req, res, next) => {
    if (Number(req.headers['content-length']) > limit) throw tooLarge();
    const spill = new SpillBuffer();
    let size = 0;
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) throw tooLarge();
        await spill.write(chunk);
      }
      spill.end();
    } catch (err) {
      await spill.discard(); // too large, or the client went or was cut (HTTP_REQUEST_TIMEOUT_MS)
      throw err;
    }
    spooled.set(req, { spill, length: size });
    // A parser's read frees it at its end; a response over before that (the client gone while it waited) here.
    res.once('close', () => {
      if (spooled.delete(req)) void spill.discard();
    });
    next();
  };

/** Bytes of the body `spoolBody` read for this request (0 when it read none). */
export const spooledLength = (req: Request): number => spooled.get(req)?.length ?? 0;

/** How a gated route's body is parsed once its slot is taken. */
export interface SpooledBodyParsers {
  /** A media type whose body (sent without Content-Encoding, at most `limit` bytes) becomes one Buffer. */
  raw?: { type: string; limit: number };
  /** Body parsers (express.json…) for every other body. */
  parsers: readonly RequestHandler[];
}

/** The spooled bytes in one Buffer of their known length: express.raw would hold its chunks and their concatenation
 *  at once, twice a 25 MB message (issue 36). */
async function readWhole(spill: SpillBuffer, length: number): Promise<Buffer> {
  const whole = Buffer.allocUnsafe(length);
  let at = 0;
  for await (const chunk of spill.read()) at += chunk.copy(whole, at);
  if (at !== length) throw new Error(`spooled body read back ${at} of ${length} bytes`);
  return whole;
}

const plainlyEncoded = (req: Request) =>
  ['', 'identity'].includes(
    String(req.headers['content-encoding'] ?? '')
      .trim()
      .toLowerCase(),
  );

/**
 * Parses the body `spoolBody` read: the `raw` type straight into a Buffer, anything else through `parsers`
 * (express.json…) as they would parse the request: the same decoding (Content-Encoding, charset), limits and errors.
 * Leaves their `req.body`.
 */
export const parseSpooledBody =
  ({ raw, parsers }: SpooledBodyParsers): RequestHandler =>
  async (req, res, next) => {
    const body = spooled.get(req);
    if (!body) throw new Error('parseSpooledBody runs after spoolBody');
    spooled.delete(req);
    const { spill, length } = body;
    if (raw && req.is(raw.type) && plainlyEncoded(req)) {
      try {
        if (length > raw.limit) throw tooLarge();
        req.body = await readWhole(spill, length);
      } finally {
        await spill.discard();
      }
      return next();
    }
    const replay = Object.assign(Readable.from(spill.read()), { headers: req.headers }) as unknown as Request;
    res.once('close', () => replay.destroy()); // a reader that stopped half-way ends the read, which frees it
    for (const parser of parsers) {
      await new Promise<void>((resolve, reject) => parser(replay, res, (err) => (err ? reject(err) : resolve())));
    }
    req.body = replay.body;
    next();
  };
