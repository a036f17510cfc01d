import { markFiledInOutlook } from '../office/category.js';
import {
  canFileSelection,
  canReadRawMessage,
  hasOpenItem,
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
import { clearFileWhenSentMark, markToFileWhenSent, readFileWhenSentMark } from '../office/mark.js';
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
};

export type MailHost = typeof officeMailHost;
