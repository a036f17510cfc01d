import { randomBytes, randomUUID } from 'node:crypto';

/** Opaque, URL-safe identifiers with a readable prefix (`doc_…`, `prj_…`). */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url')}`;

export const newUuid = (): string => randomUUID();
