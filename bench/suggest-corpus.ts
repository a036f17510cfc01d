// Accuracy of the local project ranker on the hand-written labelled corpus in bench/data/suggest-corpus
// (see its README: setup, history, 217 labelled e-mails, and the tuning / held-out split fixed before tuning).
//
//   npx tsx bench/suggest-corpus.ts [--misses] [--half tuning|held-out|both]
//
// Reported per half and per kind: top-1, top-3, and for irrelevant mail the share with no suggestion above 0.5.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../server/db/connection.js';
import { documents, filedEmails, projectMembers, users } from '../server/db/schema.js';
import { ProjectIndexCache } from '../server/filing/project-index-cache.js';
import { rankProjects } from '../server/filing/ranker.js';
import { relearnOrganization } from '../server/filing/service.js';
import { newId } from '../server/ids.js';
import { createOrganization, createProject } from '../server/organizations/service.js';
import type { SuggestionRequest } from '../shared/filing.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'suggest-corpus');
const now = new Date('2026-11-20T12:00:00Z');

interface Labelled {
  id: string;
  kind: string;
  expect: string | null;
  half: 'tuning' | 'held-out';
  request: SuggestionRequest;
}

const parseAddress = (text: string) => {
  const m = text.trim().match(/^(.*?)\s*<([^>]+)>$/);
  return m ? { name: m[1]!.trim(), address: m[2]!.trim().toLowerCase() } : { address: text.trim().toLowerCase() };
};
const list = (text: string | undefined) =>
  text
    ? text
        .split(/[;,]/)
        .filter((s) => s.trim())
        .map(parseAddress)
    : [];

/** The labelled e-mails in file-name order; within each kind alternately tuning (1st, 3rd …) and held-out. */
export function loadCorpus(callerEmail: string): Labelled[] {
  const seen = new Map<string, number>();
  const files = readdirSync(dir)
    .filter((f) => f.startsWith('mail-'))
    .sort();
  return files.flatMap((file) =>
    readFileSync(path.join(dir, file), 'utf8')
      .split(/^### /m)
      .slice(1)
      .map((block) => {
        const [head, ...rest] = block.split('\n');
        const [id, kind, expected] = head!.split('|').map((s) => s.trim());
        const text = rest.join('\n');
        const split = text.indexOf('\n\n');
        const headers = Object.fromEntries(
          text
            .slice(0, split)
            .split('\n')
            .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const index = seen.get(kind!) ?? 0;
        seen.set(kind!, index + 1);
        return {
          id: id!,
          kind: kind!,
          expect: expected === 'none' ? null : expected!,
          half: index % 2 === 0 ? 'tuning' : 'held-out',
          request: {
            subject: headers.subject ?? '',
            from: parseAddress(headers.from!),
            to: headers.to ? list(headers.to) : [{ address: callerEmail }],
            cc: list(headers.cc),
            bodyPreview: text.slice(split + 2).trim(),
            attachmentNames: headers.attachments ? headers.attachments.split(';').map((s: string) => s.trim()) : [],
          },
        } satisfies Labelled;
      }),
  );
}

/** setup.json: the organization, its projects, documents and directory, and the person filing. */
interface CorpusSetup {
  organization: string;
  caller: { name: string; email: string };
  projects: { key: string; name: string; code?: string; aliases: string[] }[];
  /** Document numbers per project key. */
  documents: Record<string, string[]>;
  /** Project members' e-mail addresses per project key. */
  directory: Record<string, string[]>;
}

type Db = Awaited<ReturnType<typeof openDatabase>>['db'];
type Tally = { n: number; top1: number; top3: number; quiet: number };

/** Builds the corpus organization in a fresh embedded database, ranks every labelled e-mail, prints the table. */
export async function reportCorpus(values: { misses: boolean; half: string }) {
  const setup: CorpusSetup = JSON.parse(readFileSync(path.join(dir, 'setup.json'), 'utf8'));
  const database = await openDatabase({ dataDir: mkdtempSync(path.join(tmpdir(), 'suggest-corpus-')) });
  await database.migrate();
  const { orgId, keyOf } = await buildCorpusOrganization(database.db, setup);
  printTable(await rankCorpus(database.db, { orgId, keyOf, callerEmail: setup.caller.email, ...values }));
  await database.close();
}

/** The organization, its projects, documents and members, and the filing history; `keyOf` maps ids to keys. */
async function buildCorpusOrganization(db: Db, setup: CorpusSetup) {
  const org = await createOrganization(db, { name: setup.organization });
  const keyOf = new Map<string, string>();
  const idOf = new Map<string, string>();
  for (const p of setup.projects) {
    const created = await createProject(db, { organizationId: org.id, name: p.name, code: p.code, aliases: p.aliases });
    keyOf.set(created.id, p.key);
    idOf.set(p.key, created.id);
  }
  const filer = newId('usr');
  await db.insert(users).values({ id: filer, email: setup.caller.email, name: setup.caller.name });
  for (const [key, numbers] of Object.entries(setup.documents)) {
    for (const number of numbers) {
      await db.insert(documents).values({
        id: newId('doc'),
        organizationId: org.id,
        projectId: idOf.get(key)!,
        number,
        format: number.startsWith('RFI') ? 'rfi' : 'submittal',
        type: 'general',
        title: number,
        status: 'open',
      });
    }
  }
  const userIds = new Map<string, string>([[setup.caller.email, filer]]);
  for (const [key, emails] of Object.entries(setup.directory)) {
    for (const email of emails) {
      if (!userIds.has(email)) {
        userIds.set(email, newId('usr'));
        await db.insert(users).values({ id: userIds.get(email)!, email, name: email });
      }
      await db
        .insert(projectMembers)
        .values({ organizationId: org.id, projectId: idOf.get(key)!, userId: userIds.get(email)! });
    }
  }
  await insertHistory(db, org.id, idOf, filer);
  // The history is written past the API: the suggestion model learns it as filing would have.
  await relearnOrganization(db, org.id);
  return { orgId: org.id, keyOf };
}

/** history.txt: one filed e-mail a line, `project key | date | from | to | subject`. */
async function insertHistory(db: Db, orgId: string, idOf: Map<string, string>, filer: string) {
  for (const line of readFileSync(path.join(dir, 'history.txt'), 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [key, date, from, to, subject] = line.split('|').map((s) => s.trim());
    const sender = parseAddress(from!);
    await db.insert(filedEmails).values({
      id: newId('fem'),
      organizationId: orgId,
      projectId: idOf.get(key!)!,
      messageId: `${newId('msg')}@history.test`,
      subject: subject!,
      fromAddress: sender.address,
      fromName: sender.name ?? null,
      to: list(to),
      cc: [],
      filedById: filer,
      filedAt: new Date(`${date}T12:00:00Z`),
    });
  }
}

/** Ranks the labelled e-mails of `half` and tallies them per `half|kind` and `half|ALL`. */
async function rankCorpus(
  db: Db,
  run: { orgId: string; keyOf: Map<string, string>; callerEmail: string; misses: boolean; half: string },
) {
  const rows = new Map<string, Tally>();
  const count = (half: string, kind: string, top1: boolean, top3: boolean, quiet: boolean) => {
    for (const key of [`${half}|${kind}`, `${half}|ALL`]) {
      const r = rows.get(key) ?? { n: 0, top1: 0, top3: 0, quiet: 0 };
      r.n++;
      r.top1 += Number(top1);
      r.top3 += Number(top3);
      r.quiet += Number(quiet);
      rows.set(key, r);
    }
  };
  const projectIndexes = new ProjectIndexCache(db);
  for (const mail of loadCorpus(run.callerEmail)) {
    if (run.half !== 'both' && mail.half !== run.half) continue;
    const ranked = await rankProjects(db, projectIndexes, {
      orgIds: [run.orgId],
      callerEmail: run.callerEmail,
      request: mail.request,
      now,
      limit: 5,
    });
    const keys = ranked.map((r) => run.keyOf.get(r.projectId));
    const quiet = ranked.every((r) => r.score <= 0.5);
    const top1 = mail.expect ? keys[0] === mail.expect : quiet;
    const top3 = mail.expect ? keys.slice(0, 3).includes(mail.expect) : quiet;
    count(mail.half, mail.kind, top1, top3, quiet);
    if (run.misses && !top1)
      console.log(
        `MISS ${mail.half} ${mail.id} expect ${mail.expect}: ${ranked.map((r) => `${run.keyOf.get(r.projectId)} ${r.score} [${r.reasons[0]}]`).join(' | ')}`,
      );
  }
  return rows;
}

function printTable(rows: Map<string, Tally>) {
  const pct = (a: number, n: number) => `${((100 * a) / n).toFixed(1)} %`.padStart(8);
  console.log(
    `${'half'.padEnd(9)} ${'kind'.padEnd(16)} ${'n'.padStart(4)} ${'top-1'.padStart(8)} ${'top-3'.padStart(8)}`,
  );
  for (const [key, r] of [...rows].sort()) {
    const [half, kind] = key.split('|');
    const note = kind === 'irrelevant' ? '   (no suggestion above 0.5)' : '';
    console.log(
      `${half!.padEnd(9)} ${kind!.padEnd(16)} ${String(r.n).padStart(4)} ${pct(r.top1, r.n)} ${pct(r.top3, r.n)}${note}`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({
    options: { misses: { type: 'boolean', default: false }, half: { type: 'string', default: 'both' } },
  });
  await reportCorpus({ misses: values.misses, half: values.half });
}
