import {
  canReadRawMessage,
  markToFileWhenSent,
  onItemChanged,
  readAttachmentBase64,
  readBodyHtml,
  readBodyText,
  readFileWhenSentMark,
  readOpenMessage,
  readRawMessageBase64,
} from '../office/mailbox.js';

/** The mailbox as the task pane's components see it: they get this object, never `Office` itself. */
export const officeMailHost = {
  readOpenMessage,
  readBodyText,
  readBodyHtml,
  readAttachmentBase64,
  canReadRawMessage,
  readRawMessageBase64,
  markToFileWhenSent,
  readFileWhenSentMark,
  onItemChanged,
};

export type MailHost = typeof officeMailHost;
