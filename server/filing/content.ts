import type { SuggestionRequest } from '../../shared/filing.js';
import { documentNumbersIn } from './clues/document-numbers.js';
import { type JobNumber, jobNumbersIn } from './clues/job-numbers.js';
import { parseMailBody } from './clues/mail-body.js';
import { splitPassing } from './clues/passing.js';

/** Where in the e-mail a clue stands: it says how much the clue counts (W.where in score.ts). */
export type Where = 'subject' | 'attachment' | 'body' | 'passing' | 'quotedSubject' | 'quoted' | 'signature';

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
  const body = parseMailBody(request.bodyPreview);
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
    ...body.signatures.map((s): [Where, string] => ['signature', s]),
  ];
  const sections = texts
    .filter(([, text]) => text.trim() !== '')
    .map(([where, text]) => ({ where, text, jobNumbers: jobNumbersIn(text) }));
  return {
    sections,
    documentNumbers: documentNumbersIn(
      sections
        .filter((s) => s.where !== 'signature')
        .map((s) => s.text)
        .join('\n'),
    ),
    quotedSenders: [...new Set(body.quoted.flatMap((q) => (q.fromAddress ? [q.fromAddress] : [])))],
  };
}
