import { useEffect } from 'react';
import type { ApiClient } from '../api/client.js';
import type { OpenMessage } from '../office/mailbox.js';
import type { FileWhenSentMark } from '../office/mark.js';
import type { AsyncState } from '../ui/use-async.js';
import type { MailHost } from './mail-host.js';

/**
 * On the sender's sent copy of an e-mail filed as it was sent (its mark names the filed record): tells Sitefile the
 * Message-ID the transport gave the mail, so that this copy and every recipient's find the one record, then adds
 * the "Filed:" category (a draft's category could travel to the recipients, so the draft got none). Done once: the
 * mark records it. A failure (offline) is tried again the next time the sent copy is opened.
 */
export function useSentCopy(
  api: ApiClient,
  host: MailHost,
  message: OpenMessage,
  mark: AsyncState<FileWhenSentMark | undefined>,
  onTold: () => void,
) {
  const filed = mark.status === 'done' ? mark.data : undefined;
  const sentId = message.mode === 'read' ? message.internetMessageId : undefined;
  useEffect(() => {
    if (!filed?.filedEmailId || filed.sentMessageId || !sentId) return;
    const target = { orgId: filed.organizationId, projectId: filed.projectId };
    // The category and the mark go on this sent copy only, even when another e-mail is selected meanwhile.
    const held = host.holdItem();
    (async () => {
      await api.tellSentMessageId(target, filed.filedEmailId!, sentId);
      onTold();
      if (filed.projectName) await held.markFiledInOutlook(filed.projectName);
      await held.markToFileWhenSent({ ...filed, sentMessageId: sentId });
    })().catch(() => undefined);
  }, [api, host, filed, sentId, onTold]);
}
