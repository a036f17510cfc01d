import { officeCall } from './async.js';
import { isEnumValue } from './enums.js';

export interface MailAddress {
  address: string;
  name?: string;
}

export interface MailAttachment {
  id: string;
  name: string;
  contentType: string;
  size: number;
  isInline: boolean;
}

/** What the task pane knows about the open e-mail; read mode and compose mode give the same shape. */
export interface OpenMessage {
  mode: 'read' | 'compose';
  /** The RFC 5322 Message-ID; absent in compose mode (the message does not exist yet). */
  internetMessageId?: string;
  conversationId?: string;
  subject: string;
  from?: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  sentAt?: string;
  attachments: MailAttachment[];
}

export type AnyItem = Office.MessageRead & Office.MessageCompose;
/** getAsFileAsync (Mailbox 1.14) is newer than the bundled office-js types. */
type ItemWithFile = { getAsFileAsync(callback: (result: Office.AsyncResult<string>) => void): void };

/** The selected message loaded to be read while several are selected (Mailbox 1.15 allows one at a time). */
let loadedItem: AnyItem | undefined;

export const item = (): AnyItem => {
  const current = loadedItem ?? Office.context.mailbox.item;
  if (!current) throw new Error('No e-mail is selected.');
  return current as unknown as AnyItem;
};

/** An item's EWS id (read mode); a draft being written has none. */
const itemIdOf = (of: unknown): string | undefined => (of as { itemId?: string } | null)?.itemId || undefined;

/** The item open now, as every read sees it unless a filing holds another (holdOpenItem). */
const openNow = () => loadedItem ?? (Office.context.mailbox.item as unknown as AnyItem | null) ?? undefined;

/** The person selected another e-mail while a filing was using this one. */
export class ItemChangedError extends Error {
  constructor() {
    super(
      'You selected another e-mail while this one was being read, so it was not filed. Select it again and press File.',
    );
    this.name = 'ItemChangedError';
  }
}

/** Where an Outlook call finds its item: the item open now, or the one a filing holds. */
export interface ItemSource {
  /** The item to call; throws ItemChangedError when it is no longer the open one. */
  item(): AnyItem;
  /** Throws ItemChangedError when the item is no longer the open one. */
  check(): void;
}
export const currentItem: ItemSource = { item, check: () => undefined };

/**
 * Holds the open item for a filing: every Outlook call of the filing acts on it, or not at all. In a pinned pane
 * the person may select another e-mail meanwhile; Office.context.mailbox.item is then the new one, and an old item
 * object's calls cannot be trusted either (Outlook on the web runs them against the item now open, office-js issue
 * #3267; Outlook on Windows fails them, #826). So before each call, and after each read, the held item must still
 * be the open one (by its id, or as the same object for a draft).
 */
export function holdOpenItem(): ItemSource {
  const held = item();
  const id = itemIdOf(held);
  const check = () => {
    const now = openNow();
    if (!now || (id ? itemIdOf(now) !== id : now !== held)) throw new ItemChangedError();
  };
  return {
    item: () => {
      check();
      return held;
    },
    check,
  };
}

/** One Outlook call on the item `from` gives; its answer is taken only if that item is still the one meant. */
export async function callOn<T>(
  from: ItemSource,
  operation: string,
  start: (of: AnyItem, callback: (result: Office.AsyncResult<T>) => void) => void,
): Promise<T> {
  const of = from.item();
  const value = await officeCall<T>(operation, (cb) => start(of, cb));
  from.check();
  return value;
}

/** False in a pinned pane while no e-mail is selected (or several are). */
export const hasOpenItem = (): boolean => Boolean(Office.context.mailbox?.item);

const isReadMode = (current: AnyItem) => typeof (current as unknown as { subject: unknown }).subject === 'string';

const toAddress = (details: Office.EmailAddressDetails): MailAddress =>
  details.displayName && details.displayName !== details.emailAddress
    ? { address: details.emailAddress, name: details.displayName }
    : { address: details.emailAddress };

const toAttachment = (a: Office.AttachmentDetails | Office.AttachmentDetailsCompose): MailAttachment => ({
  id: a.id,
  name: a.name,
  contentType: 'contentType' in a && a.contentType ? a.contentType : 'application/octet-stream',
  size: a.size,
  isInline: a.isInline,
});

/** A snapshot of the open e-mail's header fields and attachment list. */
export async function readOpenMessage(): Promise<OpenMessage> {
  const current = item();
  if (isReadMode(current)) {
    const read = current as unknown as Office.MessageRead;
    return {
      mode: 'read',
      internetMessageId: read.internetMessageId || undefined,
      conversationId: read.conversationId || undefined,
      subject: read.subject ?? '',
      from: read.from ? toAddress(read.from) : undefined,
      to: (read.to ?? []).map(toAddress),
      cc: (read.cc ?? []).map(toAddress),
      sentAt: read.dateTimeCreated ? new Date(read.dateTimeCreated).toISOString() : undefined,
      attachments: (read.attachments ?? []).map(toAttachment),
    };
  }
  const compose = current as unknown as Office.MessageCompose;
  const [subject, to, cc, from, attachments] = await Promise.all([
    officeCall<string>('subject.getAsync', (cb) => compose.subject.getAsync(cb)),
    officeCall<Office.EmailAddressDetails[]>('to.getAsync', (cb) => compose.to.getAsync(cb)),
    officeCall<Office.EmailAddressDetails[]>('cc.getAsync', (cb) => compose.cc.getAsync(cb)),
    officeCall<Office.EmailAddressDetails>('from.getAsync', (cb) => compose.from.getAsync(cb)),
    officeCall<Office.AttachmentDetailsCompose[]>('getAttachmentsAsync', (cb) => compose.getAttachmentsAsync(cb)),
  ]);
  return {
    mode: 'compose',
    conversationId: compose.conversationId || undefined,
    subject,
    from: from ? toAddress(from) : undefined,
    to: to.map(toAddress),
    cc: cc.map(toAddress),
    attachments: attachments.map(toAttachment),
  };
}

/** The body as plain text, cut to `maxChars` (suggestions need only a preview). */
export async function readBodyText(maxChars: number, from = currentItem): Promise<string> {
  const text = await callOn<string>(from, 'body.getAsync', (of, cb) => of.body.getAsync(Office.CoercionType.Text, cb));
  return text.slice(0, maxChars);
}

export function readBodyHtml(from = currentItem): Promise<string> {
  return callOn<string>(from, 'body.getAsync', (of, cb) => of.body.getAsync(Office.CoercionType.Html, cb));
}

/** An attachment's bytes as base64; item attachments (attached e-mails) come as .eml text and are encoded here. */
export async function readAttachmentBase64(attachmentId: string, from = currentItem): Promise<string> {
  const content = await callOn<Office.AttachmentContent>(from, 'getAttachmentContentAsync', (of, cb) =>
    of.getAttachmentContentAsync(attachmentId, cb),
  );
  const { Base64, Eml, ICalendar } = Office.MailboxEnums.AttachmentContentFormat;
  if (isEnumValue(content.format, Base64)) return content.content;
  if (isEnumValue(content.format, Eml) || isEnumValue(content.format, ICalendar)) return utf8ToBase64(content.content);
  throw new Error('This attachment is a cloud link and has no file content to file');
}

/** Hosts with Mailbox 1.14 hand over the whole message (MIME); older ones need the JSON form. */
export function canReadRawMessage(): boolean {
  return Office.context.requirements.isSetSupported('Mailbox', '1.14');
}

/** The open (received) message as base64-encoded MIME. */
export function readRawMessageBase64(from = currentItem): Promise<string> {
  return callOn<string>(from, 'getAsFileAsync', (of, cb) => (of as unknown as ItemWithFile).getAsFileAsync(cb));
}

/** Calls `handler` when the user selects another e-mail while the task pane is pinned. */
export function onItemChanged(handler: () => void): Promise<void> {
  return officeCall<void>('addHandlerAsync', (cb) =>
    Office.context.mailbox.addHandlerAsync(Office.EventType.ItemChanged, handler, cb),
  );
}

function utf8ToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A message in a shared or delegate mailbox: whose mailbox it is, and whether this person may change its items. */
export interface SharedMailbox {
  owner: string;
  canWrite: boolean;
}

type ItemWithSharedProperties = {
  getSharedPropertiesAsync?(callback: (result: Office.AsyncResult<Office.SharedProperties>) => void): void;
};

/**
 * Where the open message lives when it is not the person's own mailbox (Mailbox 1.8, with SupportsSharedFolders in
 * the manifest): project mailboxes are common in construction. Undefined for the person's own mailbox.
 */
export async function readSharedMailbox(): Promise<SharedMailbox | undefined> {
  const current = item() as unknown as ItemWithSharedProperties;
  if (typeof current.getSharedPropertiesAsync !== 'function') return undefined;
  const shared = await officeCall<Office.SharedProperties>('getSharedPropertiesAsync', (cb) =>
    current.getSharedPropertiesAsync!(cb),
  );
  // DelegatePermissions is a bit field; Write is 2 (Office.MailboxEnums.DelegatePermissions.Write).
  return { owner: shared.owner, canWrite: (Number(shared.delegatePermissions) & 2) !== 0 };
}

/** One of the messages selected together in Outlook's message list. */
export interface SelectedMessage {
  itemId: string;
  subject: string;
}

type MailboxWithSelection = {
  getSelectedItemsAsync(
    callback: (result: Office.AsyncResult<{ itemId: string; subject: string; itemType: string }[]>) => void,
  ): void;
  loadItemByIdAsync(itemId: string, callback: (result: Office.AsyncResult<AnyItem>) => void): void;
};
type LoadedItem = AnyItem & { unloadAsync(callback: (result: Office.AsyncResult<void>) => void): void };

const selectionMailbox = () => Office.context.mailbox as unknown as MailboxWithSelection;

/** Filing several messages at once needs the selection (Mailbox 1.13) and reading each of them (1.15). */
export function canFileSelection(): boolean {
  return Office.context.requirements.isSetSupported('Mailbox', '1.15');
}

/** The messages selected in the message list (with SupportsMultiSelect in the manifest); [] on older hosts. */
export async function readSelectedMessages(): Promise<SelectedMessage[]> {
  if (!canFileSelection()) return [];
  const selected = await officeCall<{ itemId: string; subject: string; itemType: string }[]>(
    'getSelectedItemsAsync',
    (cb) => selectionMailbox().getSelectedItemsAsync(cb),
  );
  return selected
    .filter((s) => isEnumValue(s.itemType, Office.MailboxEnums.ItemType.Message))
    .map((s) => ({ itemId: s.itemId, subject: s.subject }));
}

/** Calls `handler` when the person selects other messages (several, or back to one). */
export function onSelectionChanged(handler: () => void): Promise<void> {
  return officeCall<void>('addHandlerAsync', (cb) =>
    Office.context.mailbox.addHandlerAsync(
      'olkSelectedItemsChanged' as unknown as Office.EventType.ItemChanged,
      handler,
      cb,
    ),
  );
}

/** Runs `use` with one selected message as the item every read above sees; unloaded after, whatever happens. */
export async function withSelectedMessage<T>(itemId: string, use: () => Promise<T>): Promise<T> {
  const loaded = await officeCall<AnyItem>('loadItemByIdAsync', (cb) =>
    selectionMailbox().loadItemByIdAsync(itemId, cb),
  ).catch(() => {
    throw new Error('Outlook could not open this e-mail just now. Try again.');
  });
  loadedItem = loaded;
  try {
    return await use();
  } finally {
    loadedItem = undefined;
    await officeCall<void>('unloadAsync', (cb) => (loaded as LoadedItem).unloadAsync(cb)).catch(() => undefined);
  }
}
