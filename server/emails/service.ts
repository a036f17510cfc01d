import type { EmailRecord } from '../../shared/emails.js';
import { type Caller, canAccessProject } from '../auth/caller.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { emailsByMailerId, toEmailRecord } from './queries.js';

/**
 * One Email record by mailer message id. Rows outside the caller's scope do not exist for it (404).
 * A message sent to several recipients needs `recipient`; the error says nothing about who they are.
 */
export async function findEmail(
  db: Db,
  caller: Caller,
  mailerMessageId: string,
  recipient: string | undefined,
): Promise<EmailRecord> {
  const rows = (await emailsByMailerId(db, mailerMessageId)).filter((row) =>
    canAccessProject(caller.scope, row.organizationId, row.projectId),
  );
  if (rows.length === 0) throw ApiError.notFound('Email');
  if (recipient === undefined && rows.length > 1) {
    throw ApiError.badRequest('recipient query parameter is required');
  }
  const wanted = recipient?.toLowerCase();
  const row = wanted === undefined ? rows[0] : rows.find((r) => r.recipientEmail.toLowerCase() === wanted);
  if (!row) throw ApiError.notFound('Email');
  return toEmailRecord(row);
}
