import type { OpenMessage } from '../office/mailbox.js';
import type { DocumentChoice, ProjectOption } from './pickers.js';

/** What the person chose for one e-mail and has not filed yet. */
export interface SavedChoice {
  picked?: ProjectOption;
  /** null: the person cleared the document Sitefile suggested. */
  document?: DocumentChoice | null;
  note: string;
  /** Attachment ids ticked; undefined until the person changes the default (all). */
  chosen?: readonly string[];
}

/** Where the choices are kept: the pane's local storage, which outlives a reload of the pane and works offline. */
const storageKey = 'sitefile.choices';
/** E-mails whose unfiled choices are kept: the most recently touched ones. */
const KEPT = 50;

/**
 * The choices made for e-mails prepared but not filed, by e-mail: the form comes back as it was when the person
 * looks at another e-mail and returns, when the pane is reloaded, offline, and across a sign-in that expired.
 * Kept in the browser's local storage of the add-in's origin, cleared on sign-out.
 */
export function createSavedChoices(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined = local()) {
  const entries = new Map<string, SavedChoice>(read(storage));
  const write = () => {
    try {
      storage?.setItem(storageKey, JSON.stringify([...entries]));
    } catch {
      // Full or refused storage: the choices live as long as the pane, as before.
    }
  };
  return {
    get: (key: string) => entries.get(key),
    set(key: string, choice: SavedChoice) {
      entries.delete(key);
      entries.set(key, choice);
      while (entries.size > KEPT) entries.delete(entries.keys().next().value!);
      write();
    },
    delete(key: string) {
      if (entries.delete(key)) write();
    },
    clear() {
      entries.clear();
      storage?.removeItem(storageKey);
    },
  };
}

export type SavedChoices = ReturnType<typeof createSavedChoices>;

function local(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function read(storage: Pick<Storage, 'getItem'> | undefined): [string, SavedChoice][] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(storageKey) ?? '[]');
    return Array.isArray(parsed) ? (parsed as [string, SavedChoice][]).slice(-KEPT) : [];
  } catch {
    return [];
  }
}

/** Which e-mail a saved choice belongs to: its Message-ID, or for a draft in compose mode its subject. */
export const choiceKey = (message: OpenMessage): string =>
  message.internetMessageId ?? `${message.mode}:${message.subject}`;
