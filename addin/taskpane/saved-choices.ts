import type { OpenMessage } from '../office/mailbox.js';
import type { DocumentChoice, ProjectOption } from './pickers.js';

/** What the person chose for one e-mail, kept while the pane is open (across a sign-in that expired). */
export interface SavedChoice {
  picked?: ProjectOption;
  /** null: the person cleared the document Sitefile suggested. */
  document?: DocumentChoice | null;
  note: string;
  /** Attachment ids ticked; undefined until the person changes the default (all). */
  chosen?: readonly string[];
}

export const createSavedChoices = () => new Map<string, SavedChoice>();
export type SavedChoices = ReturnType<typeof createSavedChoices>;

/** Which e-mail a saved choice belongs to: its Message-ID, or for a draft in compose mode its subject. */
export const choiceKey = (message: OpenMessage): string =>
  message.internetMessageId ?? `${message.mode}:${message.subject}`;
