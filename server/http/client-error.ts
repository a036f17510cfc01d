import { randomUUID } from 'node:crypto';
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody, ErrorCode } from '../../shared/errors.js';

/** What Node's HTTP parser refused, as our error: the same statuses Node itself would answer. */
const refusalOf = (code: string | undefined): { status: number; errorCode: ErrorCode; error: string } => {
  if (code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, errorCode: 'header_too_large', error: 'Request line or header fields too large' };
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return { status: 413, errorCode: 'payload_too_large', error: 'Chunk extensions too large' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, errorCode: 'request_timeout', error: 'The request was not received in time' };
  return { status: 400, errorCode: 'bad_request', error: 'Malformed HTTP request' };
};

/**
 * The http server's `clientError` listener: requests Node refuses before Express sees them (a malformed
 * request line, a header too large, a NUL in a header) get the JSON error body every other refusal has,
 * written straight to the socket since there is no response object.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, ...refusal } = refusalOf(err.code);
  const requestId = randomUUID();
  const body = JSON.stringify({ ...refusal, requestId } satisfies ErrorBody);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
