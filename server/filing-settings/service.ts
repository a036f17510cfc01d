import type { EmailFilingSettings } from '../../shared/email-filing-settings.js';
import { recordActivity } from '../activity/queries.js';
import { type AuditActor, recordAudit } from '../audit/queries.js';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { emitEvent } from '../outbox/queries.js';
import { readEmailFilingSettings, type SettingsRow, writeEmailFilingSettings } from './queries.js';

const present = (row: SettingsRow): EmailFilingSettings => ({
  organizationId: row.organizationId,
  aiSuggest: row.aiSuggest,
  updatedAt: row.updatedAt?.toISOString() ?? null,
});

export async function getEmailFilingSettings(app: AppContext, organizationId: string): Promise<EmailFilingSettings> {
  const [row] = await readEmailFilingSettings(app.db, [organizationId]);
  if (!row) throw ApiError.notFound('Organization');
  return present(row);
}

/**
 * Sets aiSuggest. A real change is written together with its activity entry (who, old → new) in one
 * transaction; setting the value it already has changes nothing and records nothing.
 */
export async function updateEmailFilingSettings(
  app: AppContext,
  caller: Caller,
  input: { organizationId: string; aiSuggest: boolean },
  actor: AuditActor,
): Promise<EmailFilingSettings> {
  return app.db.transaction(async (tx) => {
    const [current] = await readEmailFilingSettings(tx, [input.organizationId], { lock: true });
    if (!current) throw ApiError.notFound('Organization');
    if (current.aiSuggest === input.aiSuggest) return present(current);
    const now = app.clock.now();
    await writeEmailFilingSettings(tx, {
      organizationId: input.organizationId,
      aiSuggest: input.aiSuggest,
      updatedAt: now,
      updatedById: caller.id,
    });
    await recordActivity(tx, {
      organizationId: input.organizationId,
      actor: caller,
      action: 'settings_changed',
      title: `E-mail filing AI suggestions turned ${input.aiSuggest ? 'on' : 'off'}`,
      details: { setting: 'emailFiling.aiSuggest', from: current.aiSuggest, to: input.aiSuggest },
      at: now,
    });
    await emitEvent(tx, {
      organizationId: input.organizationId,
      type: 'settings.updated',
      data: {
        organizationId: input.organizationId,
        setting: 'emailFiling.aiSuggest',
        from: current.aiSuggest,
        to: input.aiSuggest,
        updatedBy: { id: caller.id, name: caller.name, email: caller.email },
        updatedAt: now.toISOString(),
      },
      at: now,
    });
    await recordAudit(tx, actor, {
      organizationId: input.organizationId,
      action: 'settings.updated',
      target: { type: 'emailFilingSettings', id: input.organizationId },
      changes: { aiSuggest: { before: current.aiSuggest, after: input.aiSuggest } },
      at: now,
    });
    return present({ organizationId: input.organizationId, aiSuggest: input.aiSuggest, updatedAt: now });
  });
}
