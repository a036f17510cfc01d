import type { SuggestionRequest } from '../../shared/filing.js';
import { documentNumbersIn } from './clues/document-numbers.js';
import { type JobNumber, jobNumbersIn } from './clues/job-numbers.js';
import { isBanner, parseMailBody } from './clues/mail-body.js';
import { splitPassing } from './clues/passing.js';

/** Where in the e-mail a clue stands: it says how much the clue counts (W.where in score.ts). */
export type Where = 'subject' | 'attachment' | 'body' | 'passing' | 'quotedSubject' | 'quoted' | 'signature' | 'banner';

export interface Section {
  where: Where;
  text: string;
  jobNumbers: JobNumber[];
}

/** What the e-mail carries, before anything is looked up: the clue texts, job and document numbers, quoted senders. */
export interface EmailContent {
  sections: Section[];
  documentNumbers: string[];
  /** Original senders named by quoted headers (forwards and replies), lower-cased. */
  quotedSenders: string[];
}

export function contentOf(request: SuggestionRequest): EmailContent {
  const body = parseMailBody(request.bodyPreview, request.from);
  const own = splitPassing(body.text);
  const texts: [Where, string][] = [
    ['subject', request.subject],
    ...request.attachmentNames.map((name): [Where, string] => ['attachment', name]),
    ['body', own.main],
    ['passing', own.passing],
    ...body.quoted.flatMap((q): [Where, string][] => [
      ...(q.subject ? [['quotedSubject', q.subject] as [Where, string]] : []),
      ['quoted', q.text],
    ]),
    // A signature's own lines (a site engineer's "Site Engineer | St Brigid's Primary School") say more than the
    // banners and disclaimers under it (a supplier's "proud supplier of Harlow County emergency services").
    ...body.signatures.flatMap((s): [Where, string][] => {
      const lines = s.split('\n');
      return [
        ['signature', lines.filter((l) => !isBanner(l)).join('\n')],
        ['banner', lines.filter(isBanner).join('\n')],
      ];
    }),
  ];
  const sections = texts
    .filter(([, text]) => text.trim() !== '')
    .map(([where, text]) => ({ where, text, jobNumbers: jobNumbersIn(text) }));
  return {
    sections,
    documentNumbers: documentNumbersIn(
      sections
        .filter((s) => s.where !== 'signature' && s.where !== 'banner')
        .map((s) => s.text)
        .join('\n'),
    ),
    quotedSenders: [...new Set(body.quoted.flatMap((q) => (q.fromAddress ? [q.fromAddress] : [])))],
  };
}
