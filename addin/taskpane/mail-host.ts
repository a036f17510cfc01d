import { markFiledInOutlook, unmarkFiledInOutlook } from '../office/category.js';
import {
  canFileSelection,
  canReadRawMessage,
  hasOpenItem,
  holdOpenItem,
  onItemChanged,
  onSelectionChanged,
  readAttachmentBase64,
  readBodyHtml,
  readBodyText,
  readOpenMessage,
  readRawMessageBase64,
  readSelectedMessages,
  readSharedMailbox,
  withSelectedMessage,
} from '../office/mailbox.js';
import {
  clearFileWhenSentMark,
  type FileWhenSentMark,
  markToFileWhenSent,
  readFileWhenSentMark,
} from '../office/mark.js';
import { readRoamingSetting, writeRoamingSetting } from '../office/roaming.js';

/** The mailbox as the task pane's components see it: they get this object, never `Office` itself. */
export const officeMailHost = {
  hasOpenItem,
  readOpenMessage,
  readBodyText,
  readBodyHtml,
  readAttachmentBase64,
  canReadRawMessage,
  readRawMessageBase64,
  readSharedMailbox,
  markToFileWhenSent,
  clearFileWhenSentMark,
  readFileWhenSentMark,
  markFiledInOutlook,
  onItemChanged,
  readRoamingSetting,
  writeRoamingSetting,
  canFileSelection,
  readSelectedMessages,
  onSelectionChanged,
  withSelectedMessage,
  /** Holds the open e-mail for one filing (heldItemHost). */
  holdItem: heldItemHost,
};

export type MailHost = typeof officeMailHost;

/**
 * What one filing asks of Outlook, every call on the e-mail open when it started: after the person selected another
 * e-mail, a call fails with ItemChangedError rather than act on that other one (holdOpenItem).
 */
export function heldItemHost() {
  const held = holdOpenItem();
  return {
    canReadRawMessage,
    readBodyText: (maxChars: number) => readBodyText(maxChars, held),
    readBodyHtml: () => readBodyHtml(held),
    readAttachmentBase64: (attachmentId: string) => readAttachmentBase64(attachmentId, held),
    readRawMessageBase64: () => readRawMessageBase64(held),
    markFiledInOutlook: (projectName: string) => markFiledInOutlook(projectName, held),
    unmarkFiledInOutlook: (projectName: string) => unmarkFiledInOutlook(projectName, held),
    markToFileWhenSent: (mark: FileWhenSentMark) => markToFileWhenSent(mark, held),
    /** Whether the held e-mail is still the open one. */
    isOpen: () => {
      try {
        held.check();
        return true;
      } catch {
        return false;
      }
    },
  };
}
export type HeldItemHost = ReturnType<typeof heldItemHost>;
