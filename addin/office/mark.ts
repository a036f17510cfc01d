import { officeCall } from './async.js';
import { callOn, currentItem } from './mailbox.js';

/**
 * Where a draft should be filed once it is sent. It is kept in the add-in's custom properties of the item, which
 * stay in the sender's mailbox (the sent copy keeps them) and are never transmitted to recipients: no internal
 * organization or project id leaves with the e-mail.
 */
export interface FileWhenSentMark {
  organizationId: string;
  projectId: string;
  /** The project's name when it was chosen, to show the mark without asking the server. */
  projectName?: string;
  documentId?: string;
  /** Set once the e-mail was filed as it was sent (event-based activation): the filed record's id. */
  filedEmailId?: string;
  /** Set on the sent copy once it told Sitefile its Message-ID and got its category: done once. */
  sentMessageId?: string;
}

/** The custom property (per item, per add-in) that holds the mark. */
export const markProperty = 'sitefileFileWhenSent';

const loadProperties = (from = currentItem) =>
  callOn<Office.CustomProperties>(from, 'loadCustomPropertiesAsync', (of, cb) => of.loadCustomPropertiesAsync(cb));

/** Compose mode (and the send handler): remember on the draft (or on `from`'s item) where to file it once sent. */
export async function markToFileWhenSent(mark: FileWhenSentMark, from = currentItem): Promise<void> {
  const properties = await loadProperties(from);
  properties.set(markProperty, JSON.stringify(mark));
  await officeCall<void>('customProperties.saveAsync', (cb) => properties.saveAsync(cb));
}

/** The person changed their mind: the draft is sent without being filed. */
export async function clearFileWhenSentMark(): Promise<void> {
  const properties = await loadProperties();
  properties.remove(markProperty);
  await officeCall<void>('customProperties.saveAsync', (cb) => properties.saveAsync(cb));
}

/** The mark on a draft or on the sent copy, if it has one. */
export async function readFileWhenSentMark(): Promise<FileWhenSentMark | undefined> {
  const properties = await loadProperties();
  return parseMark(properties.get(markProperty));
}

export function parseMark(value: unknown): FileWhenSentMark | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<FileWhenSentMark>;
    if (typeof parsed.organizationId !== 'string' || typeof parsed.projectId !== 'string') return undefined;
    return {
      organizationId: parsed.organizationId,
      projectId: parsed.projectId,
      ...(typeof parsed.projectName === 'string' ? { projectName: parsed.projectName } : {}),
      ...(typeof parsed.documentId === 'string' ? { documentId: parsed.documentId } : {}),
      ...(typeof parsed.filedEmailId === 'string' ? { filedEmailId: parsed.filedEmailId } : {}),
      ...(typeof parsed.sentMessageId === 'string' ? { sentMessageId: parsed.sentMessageId } : {}),
    };
  } catch {
    return undefined;
  }
}
