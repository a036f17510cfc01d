// The suggestion model at a large organization (issue 26): one organization with --projects projects whose model
// holds --emails filed e-mails, then (1) POST /v1/filing/suggestions through a real server, p50/p99, next to
// GET /v1/me in the same process, (2) the model's look-up statement alone, and (3) what learning adds to a filing:
// the model's statements in a filing transaction, p50/p99. For (2) and (3), the blocks and index entries the
// statements touched per call (pg_statio/pg_stat counters): figures that do not depend on the machine's load.
//
//   npx tsx bench/suggest-scale.ts [--projects 5000] [--emails 1000000] [--requests 300] [--filings 200]
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/suggest-scale.ts …   (a fresh database)
//
// The e-mails are synthetic (per project: its own topic words and identifiers; firms shared by several projects;
// common words from a Zipf-like pool; a greeting, three lines of text, a sign-off, the sender's signature and the
// firm's disclaimer, one per line). Their counts are computed here and bulk-loaded as relearnOrganization would
// leave them (filing a million e-mails one by one through the API takes hours): features per distinct token
// (textFeatures, as learnedFeatures reads them), checked against learnedFeatures on the first e-mails; rows written
// with COPY (through pg-copy-streams) with the model's indexes dropped and rebuilt; the learned boilerplate too
// (suggestion_lines: each counted line per sender address and domain, with its per-project counts, checked against
// lineKeys on the first e-mails), so the boilerplate look-up of a suggestion and the line counting of a filing run
// against a table of a million e-mails' lines
// once after the load. The same e-mails are loaded as filed e-mails too (COPY, their indexes rebuilt after), in
// threads of four, and a third of the suggestions asked are replies in one of those threads, so the thread look-up
// runs against 1,000,000 rows. The timed filings learn one e-mail each,
// as filing does.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { from as copyFrom } from 'pg-copy-streams';
import { z } from 'zod';
import { type Database, type Db, openDatabase, poolOf } from '../server/db/connection.js';
import { selectRows } from '../server/db/rows.js';
import { projects } from '../server/db/schema.js';
import { lineKeys, lineScopes } from '../server/filing/model/boilerplate.js';
import { learnedFeatures, textFeatures } from '../server/filing/model/features.js';
import { learnedCounts, learnFeatures, learnLines, MODEL_MAX_PROJECTS } from '../server/filing/queries.js';
import { newId } from '../server/ids.js';
import { createOrganization } from '../server/organizations/service.js';
import { Rng } from '../server/seed/random.js';
import { createUser } from '../server/users/service.js';
import { startTestServer } from '../test/harness.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '5000' },
    emails: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '300' },
    filings: { type: 'string', default: '200' },
  },
});
const projectCount = Number(values.projects);
const emailCount = Number(values.emails);
const requestCount = Number(values.requests);
const filingCount = Number(values.filings);
const rng = new Rng(26);
const own = 'ridgelinegc.test';
const modelTables = ['suggestion_feature_totals', 'suggestion_lines'];
const loadedTables = [...modelTables, 'filed_emails'];

const syllables = 'ka lo mi ne ru sa to vi ze ba de fo gu hi ja ko lu ma no pe qui ra si tu ve wo xa yo zu'.split(' ');
const pseudoWord = (i: number) => {
  let w = '';
  for (let n = i + 7; w.length < 6 || n > 0; n = Math.floor(n / syllables.length)) w += syllables[n % syllables.length];
  return w;
};
const common = Array.from({ length: 4000 }, (_, i) => pseudoWord(i));
const firms = Array.from({ length: Math.max(50, projectCount / 10) }, (_, i) => `firm${i}.test`);

interface SyntheticProject {
  index: number;
  id: string;
  topics: string[];
  ids: string[];
  firms: string[];
}

const pick = <T>(list: readonly T[]) => list[Math.floor(rng.float() * list.length)]!;
/** Zipf-like: low indexes far more often. */
const commonWord = () => common[Math.floor(common.length * rng.float() ** 3)]!;

const capitalised = (w: string) => w[0]!.toUpperCase() + w.slice(1);
/** What a sender writes in every e-mail: a signature per person, a disclaimer per firm (the learned boilerplate). */
function signatureOf(firm: string, person: number) {
  const n = Number(firm.match(/\d+/)![0]);
  const name = `${capitalised(pseudoWord(200_000 + n * 3 + person))} ${capitalised(pseudoWord(300_000 + n))}`;
  return [
    name,
    `${pick(['Project Manager', 'Estimator', 'Site Engineer', 'Director'])} ${capitalised(pseudoWord(400_000 + n))} Ltd`,
    `Direct ${String(5_550_000 + n * 3 + person)}`,
    `This message from ${firm} and its attachments are confidential and meant for the named recipients only`,
  ];
}
const signatures = new Map<string, string[]>();
const GREETINGS = ['Hello all,', 'Hi team,', 'Good morning,'];
const SIGN_OFFS = ['Best regards,', 'Kind regards,', 'Regards,'];

function mailOf(p: SyntheticProject) {
  const firm = pick(p.firms);
  const person = Math.floor(rng.float() * 3);
  const from = `person${person}@${firm}`;
  let signature = signatures.get(from);
  if (!signature) {
    signature = signatureOf(firm, person);
    signatures.set(from, signature);
  }
  const words = (n: number) => Array.from({ length: n }, commonWord);
  const subject = [pick(p.topics), ...words(3), rng.float() < 0.4 ? pick(p.ids) : ''];
  const text = [[...words(10), pick(p.topics)], words(10), [...words(10), rng.float() < 0.3 ? pick(p.ids) : '']].map(
    (line) => line.join(' '),
  );
  /** Lines said in many e-mails (counted together) and the e-mail's own text (once, counted apart). */
  const repeated = [pick(GREETINGS), pick(SIGN_OFFS), ...signature];
  const lines = [repeated[0]!, ...text, ...repeated.slice(1)];
  return {
    subject: subject.join(' '),
    body: lines.join('\n'),
    // What the model learns: the signature below the sign-off is not read (clues/mail-body.ts).
    tokens: [...subject, ...lines.slice(0, 1 + text.length).flatMap((l) => l.split(' '))],
    text,
    repeated,
    from,
    recipients: [`pm@${own}`],
    attachmentNames: [],
    ownDomain: own,
  };
}

const tokenFeatures = new Map<string, string[]>();
/** learnedFeatures of a synthetic e-mail (space-separated tokens, one outside sender), from each token's features. */
function featuresOf(mail: ReturnType<typeof mailOf>): string[] {
  const out = new Set([`a:${mail.from}`, `d:${mail.from.split('@')[1]}`]);
  for (const token of mail.tokens) {
    let features = tokenFeatures.get(token);
    if (!features) {
      features = [...textFeatures(token).keys()];
      tokenFeatures.set(token, features);
    }
    for (const f of features) out.add(f);
  }
  return [...out].sort();
}

const q = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
const copyField = (v: string | number | null) =>
  v === null ? '\\N' : String(v).replace(/[\\\t\n\r]/g, (c) => `\\${c}`);

/** Rows into a table with COPY through pg-copy-streams. */
async function copyRows(db: Db, table: string, columns: string[], rows: (string | number | null)[][]) {
  if (rows.length === 0) return;
  const text = `${rows.map((r) => r.map(copyField).join('\t')).join('\n')}\n`;
  const statement = `copy ${table} (${columns.map((c) => `"${c}"`).join(', ')}) from`;
  const pool = poolOf(db);
  const client = await pool.connect();
  try {
    await pipeline(Readable.from([text]), client.query(copyFrom(`${statement} stdin`)));
  } finally {
    client.release();
  }
}

const definitions = z.object({ table: z.string(), name: z.string(), definition: z.string(), constraint: z.boolean() });

/** The loaded tables' indexes and keys, dropped; the function returned rebuilds them. */
async function dropIndexes(db: Db) {
  const found = await selectRows(
    db,
    sql`select c.conrelid::regclass::text as table, c.conname as name,
        'alter table ' || c.conrelid::regclass::text || ' add constraint ' || c.conname || ' ' || pg_get_constraintdef(c.oid)
          as definition, true as constraint
      from pg_constraint c where c.conrelid::regclass::text = any(${`{${loadedTables.join(',')}}`}::text[])
        -- filed_emails keeps its primary key: attachments' foreign key needs it
        and (c.contype in ('u', 'f') or (c.contype = 'p' and c.conrelid::regclass::text = any(${`{${modelTables.join(',')}}`}::text[])))
      union all
      select i.tablename, i.indexname, i.indexdef, false from pg_indexes i
      where i.tablename = any(${`{${loadedTables.join(',')}}`}::text[])
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    definitions,
  );
  for (const d of found) {
    await db.execute(
      sql.raw(d.constraint ? `alter table ${d.table} drop constraint ${d.name}` : `drop index ${d.name}`),
    );
  }
  return async () => {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '512MB'`);
      for (const d of found) await tx.execute(sql.raw(d.definition));
    });
  };
}

const THREAD_LENGTH = 4;
const filedColumns = [
  'id',
  'organization_id',
  'project_id',
  'message_id',
  'conversation_id',
  'subject',
  'from_address',
  'to',
  'cc',
  'body_text',
  'search_text',
  'filed_by_id',
  'filed_at',
];
const FILED_SINCE = Date.parse('2023-01-01T00:00:00Z');

const conversationOf = (p: SyntheticProject, thread: number) => `conv-${p.index}-${thread}`;

/** A filed e-mail's row: the n-th e-mail of project i, in thread n / THREAD_LENGTH, filed over three years. */
function filedRow(
  organizationId: string,
  filedById: string,
  p: SyntheticProject,
  n: number,
  mail: ReturnType<typeof mailOf>,
) {
  return [
    `fem_s${p.index}_${n}`,
    organizationId,
    p.id,
    `m${p.index}.${n}@scale.test`,
    conversationOf(p, Math.floor(n / THREAD_LENGTH)),
    mail.subject,
    mail.from,
    JSON.stringify(mail.recipients.map((address) => ({ address }))),
    '[]',
    mail.body,
    `${mail.subject} ${mail.body}`,
    filedById,
    new Date(FILED_SINCE + rng.float() * 3 * 365 * 86_400_000).toISOString(),
  ];
}

/**
 * `emailCount` synthetic e-mails: filed (rows of filed_emails) and counted per project then per feature, as filing
 * leaves the model.
 */
async function loadFiledMail(db: Db, organizationId: string, filedById: string, synthetic: SyntheticProject[]) {
  const rebuild = await dropIndexes(db);
  let filed: (string | number | null)[][] = [];
  const totals = new Map<string, { emails: number; projects: number; counts: Map<string, number> | null }>();
  let pairs = 0;
  const lines = new LineCounts(db, organizationId);
  for (const [i, p] of synthetic.entries()) {
    const mails = Math.floor(emailCount / synthetic.length) + (i < emailCount % synthetic.length ? 1 : 0);
    const counts = new Map<string, number>();
    for (let n = 0; n < mails; n++) {
      const mail = mailOf(p);
      const features = featuresOf(mail);
      if (i === 0 && n < 50 && features.join() !== learnedFeatures(mail).join())
        throw new Error(`features differ from learnedFeatures: ${features.join()} / ${learnedFeatures(mail).join()}`);
      for (const f of features) counts.set(f, (counts.get(f) ?? 0) + 1);
      await lines.add(p.id, mail, i === 0 && n < 50);
      filed.push(filedRow(organizationId, filedById, p, n, mail));
      if (filed.length === 50_000) {
        await copyRows(db, 'filed_emails', filedColumns, filed);
        filed = [];
      }
    }
    pairs += counts.size;
    for (const [feature, emails] of counts) {
      const total = totals.get(feature) ?? { emails: 0, projects: 0, counts: new Map() };
      total.emails += emails;
      total.projects = Math.min(total.projects + 1, MODEL_MAX_PROJECTS + 1);
      total.counts = total.projects > MODEL_MAX_PROJECTS ? null : (total.counts?.set(p.id, emails) ?? null);
      totals.set(feature, total);
    }
  }
  const rows = [...totals].map(([feature, t]) => [
    organizationId,
    feature,
    t.emails,
    t.projects,
    t.counts ? JSON.stringify(Object.fromEntries(t.counts)) : null,
  ]);
  for (let i = 0; i < rows.length; i += 100_000)
    await copyRows(
      db,
      'suggestion_feature_totals',
      ['organization_id', 'feature', 'emails', 'projects', 'counts'],
      rows.slice(i, i + 100_000),
    );
  await copyRows(db, 'filed_emails', filedColumns, filed);
  const lineRows = await lines.finish();
  await rebuild();
  // Autovacuum's work after a load, done now: visibility map and statistics.
  for (const table of loadedTables) await db.execute(sql.raw(`vacuum analyze ${table}`));
  return { pairs, features: totals.size, lineRows };
}

const lineColumns = ['organization_id', 'scope', 'line', 'emails', 'project_counts', 'projects'];
const keyOfLine = new Map<string, string>();
/** A repeated line's key, as lineKeys gives it. */
const repeatedKey = (line: string) => {
  let key = keyOfLine.get(line);
  if (key === undefined) {
    key = lineKeys(line)[0]!;
    keyOfLine.set(line, key);
  }
  return key;
};

/**
 * suggestion_lines as filing leaves it (learnLines): the lines said in many e-mails counted per scope and project
 * here; each e-mail's own text lines, said once, written out as they come (a million e-mails' lines do not fit a map).
 */
class LineCounts {
  private readonly repeated = new Map<string, { scope: string; key: string; counts: Map<string, number> }>();
  private readonly ownKeys = new Set<string>();
  private pending: (string | number)[][] = [];
  private rows = 0;

  constructor(
    private readonly db: Db,
    private readonly organizationId: string,
  ) {}

  async add(projectId: string, mail: ReturnType<typeof mailOf>, check: boolean) {
    const own = mail.text.map((line) => lineKeys(line)[0]!);
    const repeated = mail.repeated.map(repeatedKey);
    if (check && [...new Set([...own, ...repeated])].sort().join() !== lineKeys(mail.body).join())
      throw new Error(`line keys differ from lineKeys: ${mail.body}`);
    for (const scope of lineScopes(mail.from)) {
      for (const key of repeated) {
        const entry = this.repeated.get(`${scope} ${key}`) ?? { scope, key, counts: new Map() };
        entry.counts.set(projectId, (entry.counts.get(projectId) ?? 0) + 1);
        this.repeated.set(`${scope} ${key}`, entry);
      }
      for (const key of own) this.pending.push([this.organizationId, scope, key, 1, `{"${projectId}":1}`, 1]);
    }
    for (const key of own) {
      if (this.ownKeys.has(key)) throw new Error(`a line of own text repeats: ${mail.body}`);
      this.ownKeys.add(key);
    }
    if (this.pending.length >= 100_000) await this.flush();
  }

  private async flush() {
    await copyRows(this.db, 'suggestion_lines', lineColumns, this.pending);
    this.rows += this.pending.length;
    this.pending = [];
  }

  /** Writes what is left and the repeated lines; returns the rows written. */
  async finish() {
    for (const { scope, key, counts } of this.repeated.values()) {
      const emails = [...counts.values()].reduce((a, b) => a + b, 0);
      this.pending.push([
        this.organizationId,
        scope,
        key,
        emails,
        JSON.stringify(Object.fromEntries(counts)),
        counts.size,
      ]);
      if (this.pending.length >= 100_000) await this.flush();
    }
    await this.flush();
    return this.rows;
  }
}

const counters = z.object({
  blocks: z.number(),
  read: z.number(),
  tuples: z.number(),
});

/** Blocks touched (found in shared buffers or read) and index entries fetched on the model tables so far. */
async function modelCounters(db: Db) {
  // A backend's statistics reach the shared counters at the end of a transaction at most once a second, or
  // after 10 s idle (PostgreSQL): wait, then end a transaction.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  await db.execute(sql`select 1`);
  const [row] = await selectRows(
    db,
    sql`select coalesce(sum(io.heap_blks_hit + io.heap_blks_read + coalesce(io.idx_blks_hit, 0) + coalesce(io.idx_blks_read, 0)), 0)::float8 as blocks,
        coalesce(sum(io.heap_blks_read + coalesce(io.idx_blks_read, 0)), 0)::float8 as read,
        coalesce(sum(coalesce(s.idx_tup_fetch, 0) + coalesce(s.seq_tup_read, 0)), 0)::float8 as tuples
      from pg_statio_user_tables io join pg_stat_user_tables s using (relid)
      where io.relname = any(${`{${modelTables.join(',')}}`}::text[])`,
    counters,
  );
  return row!;
}

async function perCall(db: Db, calls: number, work: () => Promise<void>) {
  const before = await modelCounters(db);
  await work();
  const after = await modelCounters(db);
  const per = (k: keyof typeof before) => ((after[k] - before[k]) / calls).toFixed(1);
  return `per call ${per('blocks')} blocks (${per('read')} not in shared buffers), ${per('tuples')} rows read`;
}

/** Without DATABASE_URL, the embedded PostgreSQL in a temporary DATA_DIR; with it, the harness's fresh database. */
async function openDatabaseForBench(): Promise<{ database?: Database; cleanUp: () => void }> {
  if (process.env.DATABASE_URL) return { cleanUp: () => {} };
  const dir = mkdtempSync(path.join(tmpdir(), 'sitefile-suggest-scale-'));
  const database = await openDatabase({ dataDir: dir });
  await database.migrate();
  return { database, cleanUp: () => rmSync(dir, { recursive: true, force: true }) };
}

async function main() {
  const { database, cleanUp } = await openDatabaseForBench();
  // The load's index builds and vacuum run longer than a request's statement timeout.
  const server = await startTestServer({
    env: { LOG_LEVEL: 'silent', DATABASE_STATEMENT_TIMEOUT_MS: '3600000' },
    database,
  });
  const db = server.database.db;
  const org = await createOrganization(db, { name: 'Scale Builders' });
  const synthetic: SyntheticProject[] = Array.from({ length: projectCount }, (_, i) => ({
    index: i,
    id: newId('prj'),
    topics: [pseudoWord(100_000 + i * 3), pseudoWord(100_001 + i * 3), pseudoWord(100_002 + i * 3)],
    ids: [`PO-${70_000 + i}`, `BLD-26-${String(i).padStart(4, '0')}`],
    firms: [pick(firms), pick(firms), pick(firms)],
  }));
  let t = performance.now();
  for (let i = 0; i < synthetic.length; i += 1000) {
    await db.insert(projects).values(
      synthetic.slice(i, i + 1000).map((p, j) => ({
        id: p.id,
        organizationId: org.id,
        name: `Project ${i + j} ${p.topics[0]}`,
        code: String(100_000 + i + j),
      })),
    );
  }
  console.log(`${projectCount} projects in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const user = await createUser(db, {
    email: `pm@${own}`,
    name: 'PM',
    memberships: [{ orgId: org.id, role: 'member' }],
  });
  t = performance.now();
  const model = await loadFiledMail(db, org.id, user.id, synthetic);
  console.log(
    `${emailCount} filed e-mails and their model: ${model.features} features (rows), ${model.pairs} (feature, project) pairs, ${model.lineRows} learned lines (rows), loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const token = server.app.context.tokens.sign(user.id, 'user').token;
  const suggestions: number[] = [];
  const baseline: number[] = [];
  const lookups: number[] = [];
  let right = 0;
  const perProject = Math.floor(emailCount / projectCount);
  const asked = Array.from({ length: requestCount + 20 }, (_, n) => {
    const p = pick(synthetic);
    // Every third one a reply in a filed thread of its project.
    const thread =
      n % 3 === 0 && perProject >= THREAD_LENGTH ? Math.floor((rng.float() * perProject) / THREAD_LENGTH) : undefined;
    return { p, mail: mailOf(p), thread };
  });
  for (const [n, { p, mail, thread }] of asked.entries()) {
    let started = performance.now();
    await server.call('/v1/me', { token });
    const me = performance.now() - started;
    started = performance.now();
    const res = await server.call('/v1/filing/suggestions', {
      method: 'POST',
      token,
      json: {
        subject: mail.subject,
        from: mail.from,
        to: mail.recipients,
        bodyPreview: mail.body,
        ...(thread === undefined
          ? {}
          : { internetMessageId: `reply-${n}@firm.test`, conversationId: conversationOf(p, thread) }),
      },
    });
    const took = performance.now() - started;
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    if (n < 20) continue; // warm-up
    suggestions.push(took);
    baseline.push(me);
    right += Number(res.body.suggestions[0]?.projectId === p.id);
  }
  console.log(
    `suggestions (${requestCount}, sequential): p50 ${ms(q(suggestions, 0.5))}, p99 ${ms(q(suggestions, 0.99))}; ` +
      `GET /v1/me p50 ${ms(q(baseline, 0.5))}, p99 ${ms(q(baseline, 0.99))}; ` +
      `ratio p50 ${(q(suggestions, 0.5) / q(baseline, 0.5)).toFixed(2)}, p99 ${(q(suggestions, 0.99) / q(baseline, 0.99)).toFixed(2)}; ` +
      `top-1 ${((100 * right) / requestCount).toFixed(1)} %`,
  );

  const lookupIo = await perCall(db, requestCount, async () => {
    for (const { mail } of asked.slice(20)) {
      const features = [...new Set([...learnedFeatures(mail)])];
      const started = performance.now();
      await learnedCounts(db, [org.id], features);
      lookups.push(performance.now() - started);
    }
  });
  console.log(
    `model look-up alone (${requestCount}): p50 ${ms(q(lookups, 0.5))}, p99 ${ms(q(lookups, 0.99))}; ${lookupIo}`,
  );

  // Baseline: a write transaction that learns the project's own topic alone (its commit is most of it).
  const learning: number[] = [];
  const oneFeature: number[] = [];
  const learnIo = await perCall(db, filingCount, async () => {
    for (let n = 0; n < filingCount; n++) {
      const p = pick(synthetic);
      const mail = mailOf(p);
      const features = learnedFeatures(mail);
      const lines = { scopes: lineScopes(mail.from), keys: lineKeys(mail.body) };
      let started = performance.now();
      // What filing learns: the features, and the lines boilerplate is learned from (model/boilerplate.ts).
      await db.transaction(async (tx) => {
        await learnFeatures(tx, org.id, p.id, features);
        await learnLines(tx, org.id, p.id, lines);
      });
      learning.push(performance.now() - started);
      started = performance.now();
      await db.transaction((tx) => learnFeatures(tx, org.id, p.id, [`w:${p.topics[0]}`]));
      oneFeature.push(performance.now() - started);
    }
  });
  console.log(
    `learning one filed e-mail (its own transaction, ${filingCount}): p50 ${ms(q(learning, 0.5))}, p99 ${ms(q(learning, 0.99))}; ` +
      `one feature alone p50 ${ms(q(oneFeature, 0.5))}, p99 ${ms(q(oneFeature, 0.99))}; ` +
      `added p50 ${ms(q(learning, 0.5) - q(oneFeature, 0.5))}; both together ${learnIo}`,
  );
  console.log(
    `load average (1, 5, 15 min) at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  await server.close();
  if (database) await database.close();
  cleanUp();
}

main().catch((err) => {
  console.error(String(err?.message ?? err).slice(0, 600), err?.cause ? String(err.cause).slice(0, 300) : '');
  process.exit(1);
});
