import { createApiClient } from '../api/client.js';
import { isSignedIn, sessionTokens } from '../auth/session.js';
import { readOpenMessage } from '../office/mailbox.js';
import { markToFileWhenSent, readFileWhenSentMark } from '../office/mark.js';
import { fileOpenMessage } from '../taskpane/filing.js';
import { officeMailHost } from '../taskpane/mail-host.js';
import { messageOf } from '../ui/notices.js';
import { onSendFunctionName } from './names.js';

type SendEvent = { completed(options?: { allowEvent: boolean; errorMessage?: string }): void };

/**
 * Runs as the person sends a draft that "File this when sent" marked: files it into the chosen project (the JSON
 * form, read from the draft), records on the sent copy that it is filed, and lets the send go on. Drafts without
 * a mark are sent at once. When filing fails Outlook asks whether to send anyway (SendMode PromptUser).
 */
export async function onMessageSend(event: SendEvent): Promise<void> {
  try {
    const mark = await readFileWhenSentMark();
    if (!mark || mark.filedEmailId) return event.completed({ allowEvent: true });
    if (!isSignedIn()) {
      return event.completed({
        allowEvent: false,
        errorMessage:
          'Sitefile could not file this e-mail: you are signed out. Open Sitefile to sign in, or send it without filing.',
      });
    }
    const api = createApiClient(sessionTokens(location.origin, () => undefined));
    const message = { ...(await readOpenMessage()), sentAt: new Date().toISOString() };
    const chosen = new Set(message.attachments.map((a) => a.id));
    const target = { orgId: mark.organizationId, projectId: mark.projectId, documentId: mark.documentId };
    const filed = await fileOpenMessage(api, officeMailHost, message, target, chosen, () => undefined);
    await markToFileWhenSent({ ...mark, filedEmailId: filed.id });
    event.completed({ allowEvent: true });
  } catch (error) {
    event.completed({ allowEvent: false, errorMessage: `Sitefile could not file this e-mail: ${messageOf(error)}` });
  }
}

Office.onReady(() => {
  Office.actions.associate(onSendFunctionName, onMessageSend);
});
