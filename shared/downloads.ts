import { z } from 'zod';

/** Signed download URLs (`/v1/downloads/...`): parameters are checked by the signature, not by shape,
 *  so an altered URL is a 403 rather than a validation error. */
export const DownloadPath = z.object({
  blobKey: z.string().max(200).meta({ description: 'Key of the stored file' }),
  fileName: z.string().max(1000).meta({ description: 'File name offered to the browser' }),
});

export const DownloadQuery = z.object({
  type: z.string().max(200).optional().meta({ description: 'Content type of the file (signed)' }),
  expires: z.string().max(20).optional().meta({ description: 'Expiry, Unix seconds (signed)' }),
  signature: z.string().max(200).optional().meta({ description: 'HMAC-SHA256 over path, type and expiry' }),
});

export const BinaryFile = z.string().meta({ description: 'The file bytes', format: 'binary' });
