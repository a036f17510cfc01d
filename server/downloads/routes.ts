import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BinaryFile, DownloadPath, DownloadQuery } from '../../shared/downloads.js';
import { ApiError } from '../errors.js';
import { access, defineRoute, Reply } from '../http/route.js';
import { parseRange } from './range.js';
import { DOWNLOADS_PATH, verifyDownload } from './signing.js';

// Header schemas are plain OpenAPI (the route type only names the description).
const text = { type: 'string' as const };
const fileHeaders = {
  'Content-Disposition': { description: 'attachment, with the file name', schema: text },
  'Content-Length': { description: 'Bytes in this response', schema: { type: 'integer' as const } },
  'Accept-Ranges': { description: '`bytes`: single byte ranges are served with 206', schema: text },
  ETag: { description: 'Strong validator (the content hash); usable in If-Range', schema: text },
};

const forgetClientAbort = (err: NodeJS.ErrnoException) => {
  // The caller closing the connection mid-download is not a server error.
  if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
};

export const downloadRoutes = [
  defineRoute({
    method: 'get',
    path: `${DOWNLOADS_PATH}/:blobKey/:fileName`,
    operationId: 'downloadSignedFile',
    summary: 'Download a file through a time-limited signed URL',
    description:
      'The URLs come from other responses (`downloadUrl`). No bearer token: the signature is the authorization. ' +
      'An expired or altered URL is a 403. Single byte ranges are supported (206, or 416 outside the file).',
    tags: ['Downloads'],
    access: access.public,
    // The file is piped from the blob store to the response.
    streams: true,
    params: DownloadPath,
    query: DownloadQuery,
    responses: {
      200: {
        description: 'The whole file',
        contentType: 'application/octet-stream',
        schema: BinaryFile,
        headers: fileHeaders,
      },
      206: {
        description: 'The requested byte range',
        contentType: 'application/octet-stream',
        schema: BinaryFile,
        headers: fileHeaders,
      },
    },
    errors: {
      403: 'The link has expired or was altered',
      404: 'The file is no longer stored',
      416: 'The requested range lies outside the file (Content-Range gives the size)',
    },
    handler: async ({ req, res, app, params, query }) => {
      const presented = { ...params, contentType: query.type, expires: query.expires, signature: query.signature };
      if (!verifyDownload(app, presented)) {
        throw new ApiError('forbidden', 'This download link has expired or is not valid');
      }
      const size = await app.blobs.stat(params.blobKey);
      if (size === undefined) throw ApiError.notFound('File');
      const etag = `"${params.blobKey}"`;
      const ifRange = req.headers['if-range'];
      const range =
        ifRange !== undefined && ifRange !== etag ? { kind: 'whole' as const } : parseRange(req.headers.range, size);
      res.setHeader('Accept-Ranges', 'bytes');
      // The key is the content's hash: a copy the browser kept is the file as long as the key matches (304).
      res.setHeader('Cache-Control', 'private, no-cache');
      res.setHeader('ETag', etag);
      if (req.fresh) return new Reply(304);
      if (range.kind === 'unsatisfiable') return new Reply(416, undefined, { 'Content-Range': `bytes */${size}` });
      res.attachment(params.fileName);
      res.setHeader('Content-Type', presented.contentType);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      const bytes = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;
      if (bytes) {
        res.status(206).setHeader('Content-Range', `bytes ${bytes.start}-${bytes.end}/${size}`);
        res.setHeader('Content-Length', bytes.end - bytes.start + 1);
      } else {
        res.status(200).setHeader('Content-Length', size);
      }
      if (req.method === 'HEAD' || size === 0) {
        res.end();
        return undefined;
      }
      const stream = (await app.blobs.read(params.blobKey, bytes)) as Readable | undefined;
      if (!stream) throw ApiError.notFound('File');
      // Not a leak: to Node's stream helpers a response is a legacy stream, so pipeline() adds seven 'close'
      // listeners of its own to the four every response has (metrics, compression, connection limits, the
      // stall cut), one over the default warning limit. All are removed when the response closes.
      res.setMaxListeners(res.getMaxListeners() + 8);
      await pipeline(stream, res).catch(forgetClientAbort);
      return undefined;
    },
  }),
];
