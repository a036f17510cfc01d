// The suggestion model at a large organization (issue 26): one organization with --projects projects whose model
// holds --emails filed e-mails, then (1) POST /v1/filing/suggestions through a real server, p50/p99, next to
// GET /v1/me in the same process, and (2) what learning adds to a filing: the model's statement in a filing
// transaction, p50/p99.
//
//   npx tsx bench/suggest-scale.ts [--projects 5000] [--emails 100000] [--requests 300]
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/suggest-scale.ts …   (a fresh database)
//
// The e-mails are synthetic (per project: its own topic words and identifiers; firms shared by several projects;
// common words from a Zipf-like pool) and go through the same feature extraction as filing (learnedFeatures);
// their counts are bulk-loaded, as relearnOrganization would leave them, because filing a million e-mails one by
// one through the API takes hours here. The timed filings then learn one e-mail each, as filing does.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { projects } from '../server/db/schema.js';
import { learnedFeatures } from '../server/filing/model/features.js';
import { learnFeatures } from '../server/filing/queries.js';
import { newId } from '../server/ids.js';
import { createOrganization } from '../server/organizations/service.js';
import { Rng } from '../server/seed/random.js';
import { createUser } from '../server/users/service.js';
import { startTestServer } from '../test/harness.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '5000' },
    emails: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '300' },
  },
});
const projectCount = Number(values.projects);
const emailCount = Number(values.emails);
const requestCount = Number(values.requests);
const rng = new Rng(26);
const own = 'ridgelinegc.test';

const syllables = 'ka lo mi ne ru sa to vi ze ba de fo gu hi ja ko lu ma no pe qui ra si tu ve wo xa yo zu'.split(' ');
const pseudoWord = (i: number) => {
  let w = '';
  for (let n = i + 7; w.length < 6 || n > 0; n = Math.floor(n / syllables.length)) w += syllables[n % syllables.length];
  return w;
};
const common = Array.from({ length: 4000 }, (_, i) => pseudoWord(i));
const firms = Array.from({ length: Math.max(50, projectCount / 10) }, (_, i) => `firm${i}.test`);

interface SyntheticProject {
  id: string;
  topics: string[];
  ids: string[];
  firms: string[];
}

const pick = <T>(list: readonly T[]) => list[Math.floor(rng.float() * list.length)]!;
/** Zipf-like: low indexes far more often. */
const commonWord = () => common[Math.floor(common.length * rng.float() ** 3)]!;

function mailOf(p: SyntheticProject) {
  const firm = pick(p.firms);
  const words = (n: number) => Array.from({ length: n }, commonWord);
  return {
    subject: [pick(p.topics), ...words(3), rng.float() < 0.4 ? pick(p.ids) : ''].join(' '),
    body: [...words(20), pick(p.topics), ...words(10), rng.float() < 0.3 ? pick(p.ids) : ''].join(' '),
    from: `person${Math.floor(rng.float() * 3)}@${firm}`,
    recipients: [`pm@${own}`],
    attachmentNames: [],
    ownDomain: own,
  };
}

const q = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

async function main() {
  const server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  const db = server.database.db;
  const org = await createOrganization(db, { name: 'Scale Builders' });
  const synthetic: SyntheticProject[] = Array.from({ length: projectCount }, (_, i) => ({
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

  t = performance.now();
  const counts = new Map<string, number>();
  for (let n = 0; n < emailCount; n++) {
    const p = synthetic[n % synthetic.length]!;
    for (const f of learnedFeatures(mailOf(p))) {
      const key = `${f}\t${p.id}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const totals = new Map<string, { emails: number; projects: number }>();
  for (const [key, emails] of counts) {
    const feature = key.slice(0, key.indexOf('\t'));
    const total = totals.get(feature) ?? { emails: 0, projects: 0 };
    total.emails += emails;
    total.projects++;
    totals.set(feature, total);
  }
  const rows = [...counts].map(([key, emails]) => [...key.split('\t'), emails] as [string, string, number]);
  for (let i = 0; i < rows.length; i += 5000) {
    const batch = rows.slice(i, i + 5000);
    await db.execute(sql`insert into suggestion_features (organization_id, feature, project_id, emails)
      select ${org.id}, f, p, e from unnest(${`{${batch.map((r) => JSON.stringify(r[0])).join(',')}}`}::text[],
        ${`{${batch.map((r) => r[1]).join(',')}}`}::text[], ${`{${batch.map((r) => r[2]).join(',')}}`}::int[]) as u(f, p, e)`);
  }
  const totalRows = [...totals];
  for (let i = 0; i < totalRows.length; i += 5000) {
    const batch = totalRows.slice(i, i + 5000);
    await db.execute(sql`insert into suggestion_feature_totals (organization_id, feature, emails, projects)
      select ${org.id}, f, e, p from unnest(${`{${batch.map((r) => JSON.stringify(r[0])).join(',')}}`}::text[],
        ${`{${batch.map((r) => r[1].emails).join(',')}}`}::int[], ${`{${batch.map((r) => r[1].projects).join(',')}}`}::int[]) as u(f, e, p)`);
  }
  await db.execute(sql`analyze`);
  console.log(
    `model of ${emailCount} e-mails: ${rows.length} feature rows, ${totalRows.length} features, loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const user = await createUser(db, {
    email: `pm@${own}`,
    name: 'PM',
    memberships: [{ orgId: org.id, role: 'member' }],
  });
  const token = server.app.context.tokens.sign(user.id, 'user').token;
  const suggestions: number[] = [];
  const baseline: number[] = [];
  let right = 0;
  for (let n = 0; n < requestCount + 20; n++) {
    const p = pick(synthetic);
    const mail = mailOf(p);
    let started = performance.now();
    await server.call('/v1/me', { token });
    const me = performance.now() - started;
    started = performance.now();
    const res = await server.call('/v1/filing/suggestions', {
      method: 'POST',
      token,
      json: { subject: mail.subject, from: mail.from, to: mail.recipients, bodyPreview: mail.body },
    });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    if (n < 20) continue; // warm-up
    suggestions.push(ms);
    baseline.push(me);
    right += Number(res.body.suggestions[0]?.projectId === p.id);
  }
  console.log(
    `suggestions (${requestCount}, sequential): p50 ${q(suggestions, 0.5).toFixed(1)} ms, p99 ${q(suggestions, 0.99).toFixed(1)} ms; ` +
      `GET /v1/me p50 ${q(baseline, 0.5).toFixed(1)} ms, p99 ${q(baseline, 0.99).toFixed(1)} ms; top-1 ${((100 * right) / requestCount).toFixed(1)} %`,
  );

  const learning: number[] = [];
  for (let n = 0; n < 200; n++) {
    const p = pick(synthetic);
    const features = learnedFeatures(mailOf(p));
    const started = performance.now();
    await db.transaction((tx) => learnFeatures(tx, org.id, p.id, features));
    learning.push(performance.now() - started);
  }
  console.log(
    `learning one filed e-mail (its own transaction, ${learning.length}): p50 ${q(learning, 0.5).toFixed(2)} ms, p99 ${q(learning, 0.99).toFixed(2)} ms`,
  );
  await server.close();
}

main().catch((err) => {
  console.error(String(err?.message ?? err).slice(0, 600), err?.cause ? String(err.cause).slice(0, 300) : '');
  process.exit(1);
});
