// A hand-written corpus with history (bench/data/suggest-corpus-2 by default, issue 26), evaluated against a real server on a
// real port: the older e-mails are filed through the API as the organization's history (the model learns as they
// are filed), the newer ones are asked about through POST /v1/filing/suggestions.
//
//   npx tsx bench/suggest-history.ts [--corpus suggest-corpus-2|suggest-corpus-3|suggest-corpus-4] [--set held-out|tuning] [--misses]
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/suggest-history.ts   (a fresh database is created)
//
// Reported: top-1 / top-3 per kind (for `none` mail: no suggestion above 0.5), a reliability table of the top
// suggestion's probability, the same with the history filed newest first (must be identical), and with aiSuggest on
// and a fake provider that always answers right, the share of e-mails sent to it and the accuracy after it.
// `--set tuning` files the history before 2026-04-15 and asks about the rest of the history: the only set tuning
// looked at. The default, `held-out`, files all history and asks about the e-mails from the split date on.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { emailFilingSettings } from '../server/db/schema.js';
import { createOrganization, createProject } from '../server/organizations/service.js';
import { createUser } from '../server/users/service.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { listenOnLoopback } from '../test/loopback-server.js';

const dataDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data');
export const DEFAULT_CORPUS = 'suggest-corpus-2';
/** Tuning files the history before this date and asks about the history from it on (the second corpus). */
const TUNING_SPLIT = '2026-04-15';

interface Setup {
  organization: string;
  caller: { name: string; email: string };
  split: string;
  projects: {
    key: string;
    name: string;
    code: string;
    aliases: string[];
    /** Set by an admin on the project (the third corpus). */
    siteAddress?: string;
    referenceNumbers?: { label: string; value: string }[];
  }[];
}

interface Address {
  address: string;
  name?: string;
}

export interface CorpusMail {
  id: string;
  kind: string;
  /** Project key, or null: the right answer is no suggestion. */
  expect: string | null;
  date: string;
  subject: string;
  from: Address;
  to: Address[];
  cc: Address[];
  body: string;
  attachmentNames: string[];
  /** The Outlook conversation (a `Thread:` header): replies in a filed thread (the fourth corpus). */
  conversationId?: string;
}

const parseAddress = (text: string): Address => {
  const m = text.trim().match(/^(.*?)\s*<([^>]+)>$/);
  return m ? { name: m[1]!.trim(), address: m[2]!.trim().toLowerCase() } : { address: text.trim().toLowerCase() };
};
const addressList = (text: string | undefined) =>
  text
    ? text
        .split(/[;,]/)
        .filter((s) => s.trim())
        .map(parseAddress)
    : [];

export function loadSetup(corpus = DEFAULT_CORPUS): Setup {
  return JSON.parse(readFileSync(path.join(dataDir, corpus, 'setup.json'), 'utf8'));
}

/** Every labelled e-mail, oldest first (file order within a day). */
export function loadMails(callerEmail: string, corpus = DEFAULT_CORPUS): CorpusMail[] {
  const dir = path.join(dataDir, corpus);
  const files = readdirSync(dir)
    .filter((f) => f.startsWith('mail-'))
    .sort();
  const mails = files.flatMap((file) =>
    readFileSync(path.join(dir, file), 'utf8')
      .split(/^### /m)
      .slice(1)
      .map((block): CorpusMail => {
        const [head, ...rest] = block.split('\n');
        const [id, kind, expected] = head!.split('|').map((s) => s.trim());
        const text = rest.join('\n');
        // Headers run to the first blank line; an `Attachments:` line may follow the body's first paragraph.
        const split = text.indexOf('\n\n');
        const headers = new Map<string, string>();
        for (const line of text.slice(0, split).split('\n'))
          headers.set(line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim());
        let body = text.slice(split + 2).trim();
        const attachmentLine = body.match(/^Attachments: (.*)$/m);
        if (attachmentLine && !headers.has('attachments')) {
          headers.set('attachments', attachmentLine[1]!);
          body = body.replace(attachmentLine[0], '').trim();
        }
        return {
          id: id!,
          kind: kind!,
          expect: expected === 'none' ? null : expected!,
          date: headers.get('date')!,
          subject: headers.get('subject') ?? '',
          from: parseAddress(headers.get('from')!),
          to: headers.has('to') ? addressList(headers.get('to')) : [{ address: callerEmail }],
          cc: addressList(headers.get('cc')),
          ...(headers.has('thread') ? { conversationId: headers.get('thread') } : {}),
          body,
          attachmentNames: headers.has('attachments')
            ? headers
                .get('attachments')!
                .split(';')
                .map((s) => s.trim())
            : [],
        };
      }),
  );
  return mails.sort((a, b) => a.date.localeCompare(b.date));
}

/** A corpus date is a day (`2025-07-01`, sent at 09:00) or a day and time (`2025-08-04T07:42`), in UTC. */
const sentAtOf = (date: string) => (date.includes('T') ? `${date}:00Z` : `${date}T09:00:00Z`);

export interface Outcome {
  mail: CorpusMail;
  ranked: { key: string; score: number; reason: string }[];
  aiAsked: boolean;
}

export interface RunOptions {
  /** A directory of bench/data (default: the second corpus). */
  corpus?: string;
  set: 'held-out' | 'tuning';
  order: 'oldest-first' | 'newest-first';
  /** aiSuggest on, with a provider that always answers right. */
  ai: boolean;
  /** With `set: 'tuning'`: file the history before this date (default 2026-04-15), ask from it to the split. */
  tuningSplit?: string;
}

/** Builds the organization on a fresh database behind a real server, files the history, asks about the rest. */
export async function runCorpus(options: RunOptions): Promise<Outcome[]> {
  const setup = loadSetup(options.corpus);
  const mails = loadMails(setup.caller.email, options.corpus);
  const [filedBefore, askBefore] =
    options.set === 'held-out' ? [setup.split, '9999'] : [options.tuningSplit ?? TUNING_SPLIT, setup.split];
  const provider = options.ai ? await startRightProvider(setup, mails) : undefined;
  const server = await startTestServer({
    env: provider ? { AI_BASE_URL: provider.url, AI_API_KEY: 'sk-bench', AI_MODEL: 'always-right' } : {},
  });
  try {
    const db = server.database.db;
    const org = await createOrganization(db, { name: setup.organization });
    const idOf = new Map<string, string>();
    const keyOf = new Map<string, string>();
    for (const p of setup.projects) {
      const created = await createProject(db, {
        organizationId: org.id,
        name: p.name,
        code: p.code,
        aliases: p.aliases,
        siteAddress: p.siteAddress,
        referenceNumbers: p.referenceNumbers,
      });
      idOf.set(p.key, created.id);
      keyOf.set(created.id, p.key);
    }
    const user = await createUser(db, {
      email: setup.caller.email,
      name: setup.caller.name,
      memberships: [{ orgId: org.id, role: 'member' }],
    });
    const token = server.app.context.tokens.sign(user.id, 'user').token;
    if (options.ai)
      await db
        .update(emailFilingSettings)
        .set({ aiSuggest: true })
        .where(eq(emailFilingSettings.organizationId, org.id));

    const history = mails.filter((m) => m.date < filedBefore && m.expect);
    if (options.order === 'newest-first') history.reverse();
    for (const mail of history) await fileMail(server, token, org.id, idOf.get(mail.expect!)!, mail);

    const outcomes: Outcome[] = [];
    for (const mail of mails.filter((m) => m.date >= filedBefore && m.date < askBefore)) {
      const asked = provider?.requests ?? 0;
      const res = await server.call('/v1/filing/suggestions', {
        method: 'POST',
        token,
        json: {
          ...headersOf(mail),
          bodyPreview: mail.body,
          attachmentNames: mail.attachmentNames,
        },
      });
      if (res.status !== 200) throw new Error(`suggestions for ${mail.id}: ${res.status} ${JSON.stringify(res.body)}`);
      outcomes.push({
        mail,
        ranked: (res.body.suggestions as { projectId: string; score: number; reasons: string[] }[]).map((s) => ({
          key: keyOf.get(s.projectId)!,
          score: s.score,
          // SUGGEST_REASONS=1: every reason, to see what made a score.
          reason: process.env.SUGGEST_REASONS === '1' ? s.reasons.join('; ') : (s.reasons[0] ?? ''),
        })),
        aiAsked: (provider?.requests ?? 0) > asked,
      });
    }
    return outcomes;
  } finally {
    await server.close();
    await provider?.close();
  }
}

/** A corpus mail's subject and addresses as both the filing and the suggestions API take them. */
const headersOf = (mail: CorpusMail) => ({
  subject: mail.subject,
  from: mail.from,
  to: mail.to,
  cc: mail.cc,
  ...(mail.conversationId ? { conversationId: mail.conversationId } : {}),
});

async function fileMail(server: TestServer, token: string, orgId: string, projectId: string, mail: CorpusMail) {
  const res = await server.call(`/v1/organization/${orgId}/project/${projectId}/emails`, {
    method: 'POST',
    token,
    json: {
      ...headersOf(mail),
      sentAt: sentAtOf(mail.date),
      internetMessageId: `<${mail.id}@corpus.test>`,
      bodyText: mail.body,
      attachments: mail.attachmentNames.map((name) => ({
        name,
        contentType: 'application/octet-stream',
        contentBase64: Buffer.from(name).toString('base64'),
      })),
    },
  });
  if (res.status !== 201) throw new Error(`filing ${mail.id}: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * An OpenAI-compatible provider on a real port that knows every label: it answers the right project's ref (from
 * the candidates or the project list it was shown), or "none" for mail that belongs to no project. It recognises
 * the e-mail by its subject and the start of its body, which is all the payload carries: a thread's replies share
 * their subject, and a reply that switches projects must get its own answer, not the thread's.
 */
async function startRightProvider(setup: Setup, mails: CorpusMail[]) {
  const nameOf = new Map(setup.projects.map((p) => [p.key, p.name]));
  // The body's start without addresses (the provider is sent them masked) and with its spaces folded.
  const keyOf = (subject: string, body: string) =>
    `${subject}\n${body
      .replace(/\S+@\S+/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200)}`;
  const answerOf = new Map(mails.map((m) => [keyOf(m.subject, m.body), m.expect ? nameOf.get(m.expect)! : null]));
  const state = { requests: 0 };
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    state.requests++;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { content: string }[] };
    const payload = JSON.parse(body.messages.at(-1)!.content) as {
      email: { subject: string; bodyStart: string };
      candidates: { ref: string; projectName: string }[];
      projects?: { ref: string; projectName: string }[];
    };
    const right = answerOf.get(keyOf(payload.email.subject, payload.email.bodyStart));
    if (right === undefined) throw new Error(`the provider does not know the e-mail “${payload.email.subject}”`);
    const ref = [...payload.candidates, ...(payload.projects ?? [])].find((c) => c.projectName === right)?.ref;
    const ranking = ref ? [{ ref, score: 0.9 }] : [];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ ranking }) } }] }));
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    close,
  };
}

export interface Tally {
  n: number;
  top1: number;
  top3: number;
}

const isRight = (o: Outcome, k: number) =>
  o.mail.expect === null
    ? o.ranked.every((r) => r.score <= 0.5)
    : o.ranked
        .slice(0, k)
        .map((r) => r.key)
        .includes(o.mail.expect);

/** The probability the suggestions gave the right answer: its project's score, or for mail about no project, what
 *  they leave to "none". */
export const probabilityOfRight = (o: Outcome) =>
  o.mail.expect === null
    ? 1 - o.ranked.reduce((sum, r) => sum + r.score, 0)
    : (o.ranked.find((r) => r.key === o.mail.expect)?.score ?? 0);

/** Per kind and over all e-mails that belong to a project (`projects`), and for `none` mail. */
export function tally(outcomes: Outcome[]): Map<string, Tally> {
  const rows = new Map<string, Tally>();
  for (const o of outcomes) {
    for (const key of [o.mail.kind, o.mail.expect ? 'ALL projects' : 'ALL none']) {
      const row = rows.get(key) ?? { n: 0, top1: 0, top3: 0 };
      row.n++;
      row.top1 += Number(isRight(o, 1));
      row.top3 += Number(isRight(o, 3));
      rows.set(key, row);
    }
  }
  return rows;
}

/** Top suggestion's probability in tenths, against how often it was the right project. */
export function reliability(outcomes: Outcome[]) {
  const bins = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, n: 0, right: 0 }));
  for (const o of outcomes) {
    const top = o.ranked[0];
    if (!top) continue;
    const bin = bins[Math.min(9, Math.floor(top.score * 10))]!;
    bin.n++;
    bin.right += Number(top.key === o.mail.expect);
  }
  return bins;
}

/** The answers as text, to compare two runs. */
export const fingerprint = (outcomes: Outcome[]) =>
  outcomes.map((o) => `${o.mail.id}:${o.ranked.map((r) => `${r.key}=${r.score}`).join(',')}`).join('\n');

/** The e-mails whose suggestions differ between two runs, as pairs of their fingerprint lines. */
const differingLines = (a: string, b: string): [string, string][] => {
  const bLines = b.split('\n');
  return a
    .split('\n')
    .flatMap((line, i): [string, string][] => (line === bLines[i] ? [] : [[line, bLines[i] ?? '(missing)']]));
};

const pct = (a: number, n: number) => (n === 0 ? '    –' : `${((100 * a) / n).toFixed(1)} %`).padStart(8);

export function printReport(label: string, outcomes: Outcome[], misses = false) {
  console.log(`\n${label}: ${outcomes.length} e-mails`);
  console.log(`${'kind'.padEnd(14)} ${'n'.padStart(4)} ${'top-1'.padStart(8)} ${'top-3'.padStart(8)}`);
  for (const [kind, r] of [...tally(outcomes)].sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `${kind.padEnd(14)} ${String(r.n).padStart(4)} ${pct(r.top1, r.n)} ${pct(r.top3, r.n)}${kind.endsWith('none') ? '   (none above 0.5)' : ''}`,
    );
  console.log('reliability of the top suggestion: probability → share right');
  for (const b of reliability(outcomes).filter((b) => b.n > 0))
    console.log(
      `  ${b.from.toFixed(1)}–${(b.from + 0.1).toFixed(1)}  n ${String(b.n).padStart(3)}  ${pct(b.right, b.n)}`,
    );
  const sure = outcomes.filter((o) => (o.ranked[0]?.score ?? 0) >= 0.8);
  const sureRight = sure.filter((o) => o.ranked[0]!.key === o.mail.expect).length;
  console.log(`first suggestions ≥ 0.8: ${sure.length}, right ${pct(sureRight, sure.length).trim()}`);
  const asked = outcomes.filter((o) => o.aiAsked).length;
  if (asked > 0) console.log(`sent to the AI: ${asked} of ${outcomes.length} (${pct(asked, outcomes.length).trim()})`);
  // SUGGEST_MISSES=all lists every e-mail (and which went to the AI), not only the misses.
  const listed = process.env.SUGGEST_MISSES === 'all' ? outcomes : misses ? outcomes.filter((o) => !isRight(o, 1)) : [];
  for (const o of listed)
    console.log(
      `${isRight(o, 1) ? 'HIT ' : 'MISS'}${o.aiAsked ? ' AI' : ''} ${o.mail.id} ${o.mail.kind} expect ${o.mail.expect}: ${o.ranked.map((r) => `${r.key} ${r.score} [${r.reason}]`).join(' | ')}`,
    );
}

export async function reportHistoryCorpus(options: { set: RunOptions['set']; misses: boolean; corpus?: string }) {
  const { set, corpus = DEFAULT_CORPUS } = options;
  const forward = await runCorpus({ corpus, set, order: 'oldest-first', ai: false });
  printReport(`${corpus}, ${set}, history filed oldest first, local only`, forward, options.misses);
  // While tuning: the first report only (the reverse order and the AI run are for the figures).
  if (process.env.SUGGEST_QUICK === '1') return;
  const reverse = await runCorpus({ corpus, set, order: 'newest-first', ai: false });
  const differing = differingLines(fingerprint(forward), fingerprint(reverse));
  console.log(
    `history filed newest first: ${differing.length === 0 ? 'identical suggestions and probabilities' : 'DIFFERENT'}`,
  );
  for (const [oldestFirst, newestFirst] of differing)
    console.log(`  oldest first ${oldestFirst}\n  newest first ${newestFirst}`);
  const ai = await runCorpus({ corpus, set, order: 'oldest-first', ai: true });
  printReport(`${corpus}, ${set}, aiSuggest on, a provider that always answers right`, ai, false);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', default: DEFAULT_CORPUS },
      set: { type: 'string', default: 'held-out' },
      misses: { type: 'boolean', default: false },
    },
  });
  await reportHistoryCorpus({ corpus: values.corpus, set: values.set as RunOptions['set'], misses: values.misses });
}
