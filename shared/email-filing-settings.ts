import { z } from 'zod';
import { Id, Timestamp } from './common.js';

export const EmailFilingSettings = z
  .object({
    organizationId: z.string(),
    aiSuggest: z.boolean().meta({
      description:
        "When false, the mail add-in's e-mails of this organization are never sent to an external AI provider",
    }),
    updatedAt: Timestamp.nullable().meta({ description: 'Last change; null when never changed' }),
  })
  .meta({ id: 'EmailFilingSettings' });

export const EmailFilingSettingsResponse = z.object({ data: EmailFilingSettings });

export const UpdateEmailFilingSettingsBody = z
  .strictObject({ aiSuggest: z.boolean() })
  .meta({ id: 'UpdateEmailFilingSettings' });

export const AdminOrgPath = z.object({ orgId: Id });

export type EmailFilingSettings = z.infer<typeof EmailFilingSettings>;
