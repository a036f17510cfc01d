import type { z } from 'zod';
import type { FileEmailResult } from '../../shared/filing.js';
import { recordActivity } from '../activity/queries.js';
import { type Caller, canAccessProject } from '../auth/caller.js';
import { releaseBlobs } from '../blobs/queries.js';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { emitEvent } from '../outbox/queries.js';
import { lineKeys, lineScopes } from './model/boilerplate.js';
import {
  deleteFiledEmail,
  type FiledEmailWithFiler,
  filedEmailToLearn,
  findDocumentInProject,
  findFiledEmail,
  findFiledEmailByMessage,
  findProjectNamed,
  learnFeatures,
  learnLines,
  lockMessageInProject,
  moveFiledEmailRow,
  unlearnFeatures,
  unlearnLines,
} from './queries.js';
import { featuresOf, filingResult } from './service.js';

// Putting a filing right: unfiling it (the record goes, with its attachments, from the project, its search and its
// suggestion counts) or moving it to another project of the organization. Both tell the webhooks and the activity
// feed. An unfiled e-mail's blobs are released, not deleted: they are content-addressed, so the same bytes may be
// another filing's, and the blob sweep (blobs/sweep.ts) deletes them later only when nothing refers to them.

/** Where a filed e-mail is now. */
export interface FiledEmailRef {
  orgId: string;
  projectId: string;
  emailId: string;
}

const subjectOf = (row: FiledEmailWithFiler) => row.email.subject || '(no subject)';
const personOf = (caller: Caller) => ({ id: caller.id, name: caller.name, email: caller.email });

async function findOrFail(app: AppContext, ref: FiledEmailRef) {
  const row = await findFiledEmail(app.db, ref.projectId, ref.emailId);
  if (!row) throw ApiError.notFound('Filed e-mail');
  return row;
}

/** What the suggestion model learned of the e-mail, read before it changes (the same in both projects of a move). */
async function learnedOf(app: AppContext, emailId: string) {
  const row = await filedEmailToLearn(app.db, emailId);
  return {
    features: row ? featuresOf(row) : [],
    lines: { scopes: row ? lineScopes(row.fromAddress) : [], keys: row ? lineKeys(row.bodyText) : [] },
  };
}

/** Unfiles an e-mail from a project; answers where else (in the caller's scope) the same e-mail stays filed. */
export async function unfileEmail(app: AppContext, caller: Caller, ref: FiledEmailRef) {
  const row = await findOrFail(app, ref);
  const learned = await learnedOf(app, ref.emailId);
  const at = app.clock.now();
  await app.db.transaction(async (tx) => {
    const blobKeys = await deleteFiledEmail(tx, ref.projectId, ref.emailId);
    if (!blobKeys) throw ApiError.notFound('Filed e-mail');
    await releaseBlobs(tx, blobKeys, at);
    await unlearnFeatures(tx, ref.orgId, ref.projectId, learned.features);
    await unlearnLines(tx, ref.orgId, ref.projectId, learned.lines);
    await emitEvent(tx, {
      organizationId: ref.orgId,
      projectId: ref.projectId,
      type: 'email.unfiled',
      data: {
        id: ref.emailId,
        organizationId: ref.orgId,
        projectId: ref.projectId,
        documentId: row.email.documentId,
        internetMessageId: row.email.messageId,
        subject: row.email.subject,
        unfiledBy: personOf(caller),
        unfiledAt: at.toISOString(),
      },
      at,
    });
    await recordActivity(tx, {
      organizationId: ref.orgId,
      projectId: ref.projectId,
      documentId: row.email.documentId,
      actor: caller,
      action: 'email_unfiled',
      title: `E-mail unfiled: ${subjectOf(row)}`.slice(0, 500),
      details: {
        filedEmailId: ref.emailId,
        internetMessageId: row.email.messageId,
        filedBy: row.email.filedById ?? row.email.filedByKeyId,
      },
      at,
    });
  });
  app.webhooks.nudge();
}

/** Where a filing is moved to: a project of the same organization, optionally onto one of its documents. */
export interface MoveTarget {
  projectId: string;
  documentId?: string;
}

/**
 * Moves a filed e-mail to another project of its organization (onto `documentId`, or on no document). The caller
 * must be able to file into that project; a project holding the same e-mail already is a 409 (unfile it here
 * instead).
 */
export async function moveFiledEmail(
  app: AppContext,
  caller: Caller,
  ref: FiledEmailRef,
  to: MoveTarget,
): Promise<z.output<typeof FileEmailResult>> {
  const row = await findOrFail(app, ref);
  if (to.projectId === ref.projectId) throw ApiError.badRequest('The e-mail is filed in this project already');
  const [source, target] = await Promise.all([
    findProjectNamed(app.db, ref.projectId),
    findProjectNamed(app.db, to.projectId),
  ]);
  if (!source || !target || target.organizationId !== ref.orgId) {
    throw ApiError.notFound('Project (to move into) in this organization');
  }
  if (!canAccessProject(caller.scope, ref.orgId, to.projectId)) {
    throw new ApiError('forbidden', `You may not file into ${target.name}`);
  }
  const document = to.documentId ? await findDocumentInProject(app.db, to.projectId, to.documentId) : undefined;
  if (to.documentId && !document) throw ApiError.notFound('Document (in the project to move into)');
  // What it taught the model moves with it: features and boilerplate lines leave the old project's counts.
  const { features, lines } = await learnedOf(app, ref.emailId);
  const at = app.clock.now();
  await app.db.transaction(async (tx) => {
    await refuseHeldAlready(tx, row, to.projectId, target.name);
    const moved = await moveFiledEmailRow(
      tx,
      { projectId: ref.projectId, id: ref.emailId },
      { projectId: to.projectId, documentId: document?.id ?? null },
    );
    if (!moved) throw ApiError.notFound('Filed e-mail');
    await unlearnFeatures(tx, ref.orgId, ref.projectId, features);
    await learnFeatures(tx, ref.orgId, to.projectId, features);
    await unlearnLines(tx, ref.orgId, ref.projectId, lines);
    await learnLines(tx, ref.orgId, to.projectId, lines);
    await emitEvent(tx, {
      organizationId: ref.orgId,
      projectId: to.projectId,
      type: 'email.moved',
      data: {
        id: ref.emailId,
        organizationId: ref.orgId,
        projectId: to.projectId,
        documentId: document?.id ?? null,
        from: { projectId: ref.projectId, documentId: row.email.documentId },
        internetMessageId: row.email.messageId,
        subject: row.email.subject,
        movedBy: personOf(caller),
        movedAt: at.toISOString(),
      },
      at,
    });
    const details = { filedEmailId: ref.emailId, internetMessageId: row.email.messageId };
    const onto = document ? ` (${document.number})` : '';
    await recordActivity(tx, {
      organizationId: ref.orgId,
      projectId: ref.projectId,
      documentId: row.email.documentId,
      actor: caller,
      action: 'email_moved_out',
      title: `E-mail moved to ${target.name}: ${subjectOf(row)}`.slice(0, 500),
      details: { ...details, toProjectId: to.projectId },
      at,
    });
    await recordActivity(tx, {
      organizationId: ref.orgId,
      projectId: to.projectId,
      documentId: document?.id ?? null,
      actor: caller,
      action: 'email_moved_in',
      title: `E-mail moved here${onto} from ${source.name}: ${subjectOf(row)}`.slice(0, 500),
      details: { ...details, fromProjectId: ref.projectId },
      at,
    });
  });
  app.webhooks.nudge();
  const current = await findFiledEmail(app.db, to.projectId, ref.emailId);
  if (!current) throw ApiError.notFound('Filed e-mail');
  return filingResult(app, caller, current, false, false);
}

/** One record per e-mail and project: a project that holds this e-mail (by either Message-ID) takes no second. */
async function refuseHeldAlready(tx: Tx, row: FiledEmailWithFiler, projectId: string, projectName: string) {
  const ids = [row.email.messageId, ...(row.email.sentMessageId ? [row.email.sentMessageId] : [])];
  for (const id of ids) {
    await lockMessageInProject(tx, projectId, id);
    if (await findFiledEmailByMessage(tx, projectId, id)) {
      throw new ApiError(
        'conflict',
        `This e-mail is already filed in ${projectName}; unfile it here instead of moving it`,
      );
    }
  }
}
