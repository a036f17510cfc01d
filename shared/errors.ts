import { z } from 'zod';

/** Machine-readable error codes carried in `errorCode`. */
export const errorCodes = [
  'bad_request',
  'validation_failed',
  'invalid_json',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'header_too_large',
  'idempotency_key_mismatch',
  'idempotency_key_in_progress',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'Human-readable message' }),
    errorCode: z.enum(errorCodes),
    requestId: z.string(),
    details: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Validation problems, one per offending field' }),
  })
  .meta({ id: 'Error' });

export type ErrorBody = z.infer<typeof ErrorBody>;
