import { Readable } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import { SpillBuffer } from '../db/spill.js';
import { ApiError } from '../errors.js';

/** The bodies `spoolBody` read, until their request is parsed. */
const spooled = new WeakMap<Request, SpillBuffer>();

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
    try {
      let size = 0;
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
    spooled.set(req, spill);
    // A parser's read frees it at its end; a response over before that (the client gone while it waited) here.
    res.once('close', () => {
      if (spooled.delete(req)) void spill.discard();
    });
    next();
  };

/**
 * Runs body parsers (express.raw, express.json…) over the body `spoolBody` read, as they would over the request:
 * the same decoding (Content-Encoding, charset), limits and errors. Leaves their `req.body`.
 */
export const parseSpooledBody =
  (parsers: readonly RequestHandler[]): RequestHandler =>
  async (req, res, next) => {
    const spill = spooled.get(req);
    if (!spill) throw new Error('parseSpooledBody runs after spoolBody');
    spooled.delete(req);
    const replay = Object.assign(Readable.from(spill.read()), { headers: req.headers }) as unknown as Request;
    res.once('close', () => replay.destroy()); // a reader that stopped half-way ends the read, which frees it
    for (const parser of parsers) {
      await new Promise<void>((resolve, reject) => parser(replay, res, (err) => (err ? reject(err) : resolve())));
    }
    req.body = replay.body;
    next();
  };
