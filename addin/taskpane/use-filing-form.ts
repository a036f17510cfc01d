import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { type FileEmailResult, LIKELY_SCORE, type LookupResult, type Suggestion } from '../../shared/filing.js';
import { ApiCallError, type ApiClient } from '../api/client.js';
import { OfficeCallError } from '../office/async.js';
import { ItemChangedError, type OpenMessage, type SharedMailbox } from '../office/mailbox.js';
import type { FileWhenSentMark } from '../office/mark.js';
import { useAsync } from '../ui/use-async.js';
import {
  bodyBytesOf,
  type FilingStep,
  fileableAttachments,
  fileOpenMessage,
  lookupFilings,
  sendingPlan,
  suggestionRequest,
} from './filing.js';
import type { FirstLook } from './first-look.js';
import type { HeldItemHost, MailHost } from './mail-host.js';
import type { DocumentChoice } from './pickers.js';
import type { ProjectDirectory, ProjectOption } from './project-directory.js';
import { choiceKey, type SavedChoices } from './saved-choices.js';
import { useSentCopy } from './sent-copy.js';

export type Filing =
  | { state: 'idle' }
  | { state: 'busy'; step: FilingStep | 'marking' }
  | {
      state: 'done';
      result: FiledResult;
      /** The files filed with it, as the person chose them (inline images, part of the body, are not counted). */
      attachmentCount: number;
      project: ProjectOption;
      document?: DocumentChoice;
      category: CategoryOutcome;
    }
  | { state: 'marked'; project: ProjectOption }
  | { state: 'unmarked' }
  | { state: 'failed'; error: unknown };

/** What the pane tells of a filing: the server's answer, or the filing found stored after the answer was lost. */
export type FiledResult = Pick<
  z.output<typeof FileEmailResult>,
  'id' | 'organizationId' | 'projectId' | 'filedBy' | 'filedAt' | 'duplicate' | 'linkedToDocument'
> & {
  /** The answer to File was lost; the filing was found stored by looking it up. */
  foundAfterLostAnswer?: boolean;
};

/**
 * File's answer was lost (no connection, a gateway's 5xx) and looking the filing up failed too: it may be stored.
 * Retry looks it up first and files only if it is not there.
 */
export class FilingUnconfirmedError extends Error {
  readonly retryable = true;
  constructor() {
    super(
      'Sitefile’s answer did not arrive, so the add-in cannot tell whether the e-mail was stored. Retry checks first and files it only if it is not there.',
    );
    this.name = 'FilingUnconfirmedError';
  }
}

/** Whether the "Filed: project" category landed on the message in Outlook, and if not, why. */
export type CategoryOutcome =
  | { state: 'added' }
  | { state: 'read-only'; owner: string }
  /** A shared mailbox's master list lacks the category and Outlook did not let the add-in add it there. */
  | { state: 'not-in-master-list'; owner: string }
  /** The person selected another e-mail before the filing finished: the filed one is not marked, nor the other. */
  | { state: 'item-changed' }
  | { state: 'failed'; error: unknown };

/** A filing that finished after the person had selected another e-mail: the pane tells its outcome. */
export interface LeftBehind {
  subject: string;
  filing: Filing;
}

export interface FilingFormInput {
  api: ApiClient;
  host: MailHost;
  message: OpenMessage;
  savedChoices: SavedChoices;
  projects: ProjectDirectory | undefined;
  firstLook?: FirstLook;
  /** Told the outcome of a filing whose e-mail is no longer the open one (its form is gone). */
  onLeftBehind: (left: LeftBehind) => void;
}

/** A mark written before marks carried the project's name, for a project neither suggested nor recent. */
const unnamedMarkedProject = 'the project chosen while writing it';

/** What the host tells about the open e-mail besides its fields: earlier filings, suggestions, marks, mailbox. */
function useMessageFacts({ api, host, message, firstLook }: FilingFormInput) {
  const lookup = useAsync<z.output<typeof LookupResult> | undefined>(
    async () => firstLook?.lookup() ?? lookupFilings(api, message),
    [message.internetMessageId],
  );
  const suggestions = useAsync(
    async () => firstLook?.suggestions() ?? api.suggestions(await suggestionRequest(host, message)),
    [message],
  );
  const mark = useAsync<FileWhenSentMark | undefined>(
    () => host.readFileWhenSentMark().catch(() => undefined),
    [message],
  );
  const shared = useAsync<SharedMailbox | undefined>(() => host.readSharedMailbox().catch(() => undefined), [message]);
  // The bodies count in the whole message's size (a draft is never sent whole). Unread, they count as nothing: File
  // checks the whole message's real size before sending it.
  const bodyBytes = useAsync(
    () => (message.mode === 'read' ? bodyBytesOf(host).catch(() => 0) : Promise.resolve(0)),
    [message],
  );
  useSentCopy(api, host, message, mark, lookup.reload);
  return { lookup, suggestions, mark, shared, bodyBytes };
}

/** The state of the filing form for one e-mail, and what File does. The choices are kept in `savedChoices`. */
export function useFilingForm(input: FilingFormInput) {
  const { api, host, message, savedChoices } = input;
  const compose = message.mode === 'compose';
  const facts = useMessageFacts(input);
  const key = choiceKey(message);
  const saved = savedChoices.get(key);
  const attachments = fileableAttachments(message);

  const [picked, setPicked] = useState<ProjectOption | undefined>(saved?.picked);
  // undefined: untouched (the suggested document of the project, if any, is preselected); null: cleared.
  const [pickedDocument, setPickedDocument] = useState<DocumentChoice | null | undefined>(saved?.document);
  const [note, setNote] = useState(saved?.note ?? '');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(
    () => new Set(saved?.chosen ?? attachments.map((a) => a.id)),
  );
  const [filing, setFiling] = useState<Filing>({ state: 'idle' });
  // Kept only what the person changed: an e-mail merely looked at keeps nothing.
  const touched = useRef(saved !== undefined);
  useEffect(() => {
    const all = fileableAttachments(message);
    const everyAttachment = all.every((a) => chosen.has(a.id)) && chosen.size === all.length;
    if (picked === undefined && pickedDocument === undefined && note === '' && everyAttachment) {
      if (touched.current) savedChoices.delete(key);
      return;
    }
    touched.current = true;
    savedChoices.set(key, {
      picked,
      document: pickedDocument,
      note,
      chosen: everyAttachment ? undefined : [...chosen],
    });
  }, [savedChoices, key, picked, pickedDocument, note, chosen, message]);

  const { suggestions, mark } = facts;
  const suggested = suggestions.status === 'done' ? suggestions.data.suggestions : [];
  const option = (orgId: string, projectId: string, name: string): ProjectOption =>
    input.projects?.option(orgId, projectId, name) ?? { orgId, orgName: '', projectId, name, code: null };
  const fromSuggestion = (s: Suggestion) => option(s.organizationId, s.projectId, s.projectName);
  // Preselect: the project marked when the e-mail was written, else the top suggestion when it is likely. An unsure
  // top suggestion is not chosen for the person: they pick among the top choices.
  const markedProject = mark.status === 'done' && mark.data ? markedOption(mark.data) : undefined;
  const likely = suggested[0] && suggested[0].score >= LIKELY_SCORE ? suggested[0] : undefined;
  const project = picked ?? markedProject ?? (likely ? fromSuggestion(likely) : undefined);
  // The RFI or submittal the server suggests with the chosen project is preselected, until the person picks or clears.
  const suggestedDocument = project && !pickedDocument ? documentSuggested(suggested, project) : undefined;
  const document = pickedDocument === undefined ? suggestedDocument : (pickedDocument ?? undefined);
  const setDocument = (next: DocumentChoice | undefined) => setPickedDocument(next ?? null);

  function markedOption(m: FileWhenSentMark): ProjectOption {
    const same = (p: { orgId: string; projectId: string }) =>
      p.orgId === m.organizationId && p.projectId === m.projectId;
    const name =
      m.projectName ??
      suggested.map(fromSuggestion).find(same)?.name ??
      input.projects?.recent.find(same)?.name ??
      unnamedMarkedProject;
    return option(m.organizationId, m.projectId, name);
  }

  const choose = (next: ProjectOption | undefined) => {
    setPicked(next);
    setPickedDocument(undefined);
    setFiling({ state: 'idle' });
  };
  const chooseSuggestion = (s: Suggestion) => choose(fromSuggestion(s));
  /** The draft's mark was removed: it goes without being filed. */
  const unmarked = () => {
    facts.mark.reload();
    setFiling({ state: 'unmarked' });
  };

  // What File will send, and whether Sitefile accepts it: told before File, not after.
  const plan = sendingPlan(
    message,
    chosen,
    host.canReadRawMessage(),
    facts.bodyBytes.status === 'done' ? facts.bodyBytes.data : 0,
  );

  const busy = useRef(false);
  const { shared } = facts;
  const fileInto = async (target: ProjectOption, onto: DocumentChoice | undefined) => {
    if (busy.current) return;
    busy.current = true;
    // Every Outlook call of this filing acts on the e-mail open now, or not at all.
    const held = host.holdItem();
    let outcome: Filing;
    try {
      outcome = compose
        ? await markDraft(held, target, onto, setFiling)
        : await fileNow({
            api,
            held,
            message,
            project: target,
            document: onto,
            note,
            chosen,
            setFiling,
            shared,
            checkFirst: filing.state === 'failed' && filing.error instanceof FilingUnconfirmedError,
          });
      input.projects?.remember(target);
      if (compose) facts.mark.reload();
    } catch (error) {
      outcome = { state: 'failed', error };
    } finally {
      busy.current = false;
    }
    setFiling(outcome);
    // Filed: the form is done with; coming back, the e-mail shows where it is filed.
    if (outcome.state === 'done') savedChoices.delete(key);
    if (!held.isOpen()) input.onLeftBehind({ subject: message.subject, filing: outcome });
  };
  const file = () => (project ? fileInto(project, document) : Promise.resolve());
  /** A reply filed where the rest of its conversation is (the project, and the document if it is on one). */
  const fileWithThread = (filed: ConversationFiling) => {
    const target = option(filed.organizationId, filed.projectId, filed.projectName);
    const onto = filed.documentId
      ? { uid: filed.documentId, number: filed.documentNumber ?? '', title: '' }
      : undefined;
    setPicked(target);
    setPickedDocument(onto ?? null);
    return fileInto(target, onto);
  };

  return {
    ...facts,
    compose,
    attachments,
    project,
    markedProject,
    document,
    /** The document shown was suggested by Sitefile, not picked by the person. */
    documentSuggested: pickedDocument === undefined && suggestedDocument !== undefined,
    setDocument,
    note,
    setNote,
    chosen,
    setChosen,
    plan,
    filing,
    choose,
    chooseSuggestion,
    unmarked,
    file,
    fileWithThread,
    /** The filing shown was undone or moved: the form is as before File. */
    clearFiling: () => setFiling({ state: 'idle' }),
  };
}

/** The document of the first suggestion for `project` that names one. */
function documentSuggested(suggested: readonly Suggestion[], project: ProjectOption): DocumentChoice | undefined {
  const s = suggested.find(
    (x) => x.organizationId === project.orgId && x.projectId === project.projectId && x.documentId,
  );
  return s?.documentId
    ? { uid: s.documentId, number: s.documentNumber ?? '', title: s.documentTitle ?? '' }
    : undefined;
}

export type FilingForm = ReturnType<typeof useFilingForm>;
export type ConversationFiling = z.output<typeof LookupResult>['conversation'][number];

async function markDraft(
  host: HeldItemHost,
  project: ProjectOption,
  document: DocumentChoice | undefined,
  setFiling: (filing: Filing) => void,
): Promise<Filing> {
  setFiling({ state: 'busy', step: 'marking' });
  await host.markToFileWhenSent({
    organizationId: project.orgId,
    projectId: project.projectId,
    projectName: project.name,
    documentId: document?.uid,
  });
  return { state: 'marked', project };
}

/** Files the open e-mail, then marks it in Outlook's message list where the mailbox lets this person. */
async function fileNow(args: {
  api: ApiClient;
  held: HeldItemHost;
  message: OpenMessage;
  project: ProjectOption;
  document: DocumentChoice | undefined;
  note: string;
  chosen: ReadonlySet<string>;
  shared: ReturnType<typeof useMessageFacts>['shared'];
  setFiling: (filing: Filing) => void;
  /** The last attempt ended unconfirmed: look the filing up before filing again. */
  checkFirst: boolean;
}): Promise<Filing> {
  const { api, held, message, project, setFiling } = args;
  const target = {
    orgId: project.orgId,
    projectId: project.projectId,
    documentId: args.document?.uid,
    note: args.note.trim() || undefined,
  };
  setFiling({ state: 'busy', step: 'reading' });
  // A retry after an unconfirmed filing looks first: the filing may be stored though its answer was lost.
  const earlier = args.checkFirst ? await storedFiling(api, message, project) : undefined;
  const result =
    earlier ??
    (await fileOpenMessage(api, held, message, target, args.chosen, (step) => setFiling({ state: 'busy', step })).catch(
      async (error: unknown) => {
        if (!answerLost(error)) throw error;
        const found = await storedFiling(api, message, project).catch(() => {
          throw new FilingUnconfirmedError();
        });
        if (!found) throw error;
        return found;
      },
    ));
  const shared = args.shared.status === 'done' ? args.shared.data : undefined;
  const category: CategoryOutcome =
    shared && !shared.canWrite
      ? { state: 'read-only', owner: shared.owner }
      : await held.markFiledInOutlook(project.name).then(
          () => ({ state: 'added' }),
          (error: unknown) => categoryRefusal(error, shared?.owner),
        );
  const attachmentCount = fileableAttachments(message).filter((a) => args.chosen.has(a.id)).length;
  return { state: 'done', result, attachmentCount, project, document: args.document, category };
}

/** No answer, or a gateway's instead of Sitefile's: the request may have been stored all the same. */
const answerLost = (error: unknown) =>
  error instanceof ApiCallError && (error.status === 0 || error.status === 502 || error.status === 504);

/** This e-mail's filing in `project`, as looked up: the one File made though its answer was lost. */
async function storedFiling(
  api: ApiClient,
  message: OpenMessage,
  project: ProjectOption,
): Promise<FiledResult | undefined> {
  const found = await lookupFilings(api, message);
  const f = found?.filings.find((x) => x.organizationId === project.orgId && x.projectId === project.projectId);
  return f
    ? {
        id: f.filedEmailId,
        organizationId: f.organizationId,
        projectId: f.projectId,
        filedBy: f.filedBy,
        filedAt: f.filedAt,
        duplicate: false,
        linkedToDocument: false,
        foundAfterLostAnswer: true,
      }
    : undefined;
}

/** Outlook applies only categories of the mailbox's master list; a delegate may not be allowed to add to it. */
export function categoryRefusal(error: unknown, owner: string | undefined): CategoryOutcome {
  if (error instanceof ItemChangedError) return { state: 'item-changed' };
  const notInMasterList =
    error instanceof OfficeCallError && (error.operation === 'masterCategories.addAsync' || error.code === 9044);
  return owner && notInMasterList ? { state: 'not-in-master-list', owner } : { state: 'failed', error };
}
