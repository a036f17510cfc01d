// Accuracy and latency of the local project ranker (POST /v1/filing/suggestions, no AI), on the seed data.
//
//   npx tsx bench/suggest.ts [--scale demo|large] [--seed 7] [--per-project 12] [--rounds 2]
//   DATABASE_URL=postgres://… npx tsx bench/suggest.ts …   (a fresh, empty database)
//
// The evaluation set is generated from the seeded database, deterministically from --seed:
// - held-out: whole seeded threads are removed from filed_emails before ranking and replayed as the
//   e-mails to file (subject, participants, body), with their Outlook conversation id, which no longer
//   matches anything (so the thread shortcut cannot give the answer away);
// - new sender: someone new at one of the project's consultant domains, a subject that names nothing;
// - forwarded: a team member forwards a consultant's message to a colleague (the consultant appears only
//   in the quoted body);
// - internal: one colleague writes to another (both on many projects), naming the project only in the body;
// - two projects: the subject names this project's code and another project's name; the sender is one
//   of this project's consultants.
// Reported: top-1 and top-3 accuracy per kind and overall (goal ≥ 85 % / ≥ 97 %), and p50/p99 latency
// of the endpoint (goal p99 < 50 ms) next to GET /v1/me measured in the same process as the baseline.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { createFsBlobStore } from '../server/blobs/store.js';
import { ManualClock } from '../server/clock.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/client.js';
import { filedEmails, organizationMembers, users } from '../server/db/schema.js';
import { domainOf } from '../server/filing/message.js';
import { Rng } from '../server/seed/random.js';
import { type SeedScale, seedDatabase } from '../server/seed/seed.js';
import { startServer } from '../server/server.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'demo' },
    seed: { type: 'string', default: '7' },
    'per-project': { type: 'string', default: '12' },
    rounds: { type: 'string', default: '2' },
  },
});
const scale = values.scale as SeedScale;
const perProject = Number(values['per-project']);
const rounds = Number(values.rounds);
const now = new Date('2026-06-01T00:00:00Z');

type Kind = 'held-out' | 'new sender' | 'forwarded' | 'two projects' | 'internal';
interface Case {
  kind: Kind;
  orgId: string;
  projectId: string;
  body: Record<string, unknown>;
}

async function main() {
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory' });
  await database.migrate();
  const db = database.db;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-bench-'));
  const blobs = createFsBlobStore(path.join(dataDir, 'blobs'));
  const t0 = performance.now();
  const summary = await seedDatabase(db, blobs, { scale, seed: Number(values.seed), now });
  console.log(`seeded ${scale} (${summary.totalRows} rows) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  const rng = new Rng(Number(values.seed) * 31 + 1);
  const cases: Case[] = [];
  const projects = summary.organizations.flatMap((o) => o.projects.map((p) => ({ ...p, orgId: o.id })));
  const orgDomain = new Map<string, string>();
  for (const org of summary.organizations) {
    const [member] = await db
      .select({ email: users.email })
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(eq(organizationMembers.organizationId, org.id))
      .limit(1);
    orgDomain.set(org.id, domainOf(member!.email.toLowerCase()));
  }

  for (const project of projects) {
    const rows = await db.select().from(filedEmails).where(eq(filedEmails.projectId, project.id));
    const internal = orgDomain.get(project.orgId)!;
    const consultants = [...new Set(rows.map((r) => r.fromAddress.toLowerCase()))].filter(
      (a) => domainOf(a) !== internal,
    );
    const team = [...new Set(rows.map((r) => r.fromAddress.toLowerCase()))].filter((a) => domainOf(a) === internal);
    const others = projects.filter((p) => p.orgId === project.orgId && p.id !== project.id);

    // Held out: whole threads, removed from the history before ranking.
    const threads = [...new Set(rows.map((r) => r.conversationId))];
    const heldThreads = new Set(rng.sample(threads, Math.max(1, Math.round(threads.length * 0.1))));
    const held = rows.filter((r) => heldThreads.has(r.conversationId)).slice(0, perProject);
    for (const r of held) {
      cases.push({
        kind: 'held-out',
        orgId: project.orgId,
        projectId: project.id,
        body: {
          conversationId: r.conversationId ?? undefined,
          subject: r.subject,
          from: r.fromAddress,
          to: r.to.map((a) => a.address),
          cc: r.cc.map((a) => a.address),
          bodyPreview: r.bodyText.slice(0, 4000),
          attachmentNames: [],
        },
      });
    }
    await db
      .delete(filedEmails)
      .where(inArray(filedEmails.conversationId, [...heldThreads].filter(Boolean) as string[]));

    for (let i = 0; i < perProject / 3; i++) {
      const consultant = rng.pick(consultants);
      const colleague = rng.pick(team);
      cases.push({
        kind: 'new sender',
        orgId: project.orgId,
        projectId: project.id,
        body: {
          subject: rng.pick(['Quick question', 'Following up', 'Revised schedule', 'Site visit next week']),
          from: `newcomer${i}@${domainOf(consultant)}`,
          to: [colleague],
          cc: [],
          bodyPreview: 'Hello, I have taken over from my colleague on this one. Could you send the latest set?',
          attachmentNames: [],
        },
      });
      const forwarder = rng.pick(team);
      cases.push({
        kind: 'forwarded',
        orgId: project.orgId,
        projectId: project.id,
        body: {
          subject: `FW: ${rng.pick(['Comments', 'Please review', 'Updated markups', 'Answer'])}`,
          from: forwarder,
          to: [rng.pick(team.filter((t) => t !== forwarder).concat(colleague))],
          cc: [],
          bodyPreview: `FYI, see below.\n\n---------- Forwarded message ---------\nFrom: ${consultant}\nDate: Mon, 4 May 2026\nSubject: Comments\n\nPlease find our comments attached.`,
          attachmentNames: ['comments.pdf'],
        },
      });
      if (others.length > 0) {
        const other = rng.pick(others);
        cases.push({
          kind: 'two projects',
          orgId: project.orgId,
          projectId: project.id,
          body: {
            subject: `${project.code} – interface with ${other.name}`,
            from: consultant,
            to: [colleague],
            cc: [],
            bodyPreview: `The boundary between ${project.code} and ${other.name} needs agreeing before the next pour.`,
            attachmentNames: [],
          },
        });
      }
      cases.push({
        kind: 'internal',
        orgId: project.orgId,
        projectId: project.id,
        body: {
          subject: rng.pick(['Handover', 'Tomorrow', 'Resourcing', 'Budget check']),
          from: colleague,
          to: [rng.pick(team)],
          cc: [],
          bodyPreview: `Can you cover the ${project.name} site walk on Thursday? I am on the other job.`,
          attachmentNames: [],
        },
      });
    }
  }

  // Fresh statistics after bulk loading and the hold-out deletes, as autovacuum would have by now.
  await db.execute(sql`analyze`);

  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    // One caller sends every request: the per-caller rate limit is not what is measured.
    RATE_LIMIT_PER_MINUTE: '1000000',
    JWT_SIGNING_KEY: 'bench-key-0123456789abcdefghijklmnopqrstuv',
  });
  const clock = new ManualClock(now);
  const server = await startServer({ config, db, clock, log: pino({ level: 'silent' }), port: 0 });
  const tokens = new Map(
    summary.accounts
      .filter((a) => a.role === 'member')
      .map((a) => [a.orgId, server.app.context.tokens.sign(a.userId, 'user').token]),
  );
  const call = async (pathname: string, token: string, json?: unknown) => {
    const started = performance.now();
    const res = await fetch(server.url + pathname, {
      method: json ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    });
    const body = (await res.json()) as { suggestions: { projectId: string }[] };
    if (res.status !== 200) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - started, body };
  };

  // Warm-up, then `rounds` passes over the whole set, interleaved with the baseline.
  for (const c of cases.slice(0, 20)) await call('/v1/filing/suggestions', tokens.get(c.orgId)!, c.body);
  const latencies: number[] = [];
  const baseline: number[] = [];
  const hits = new Map<Kind, { n: number; top1: number; top3: number }>();
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      const token = tokens.get(c.orgId)!;
      baseline.push((await call('/v1/me', token)).ms);
      const { ms, body } = await call('/v1/filing/suggestions', token, c.body);
      latencies.push(ms);
      if (round > 0) continue;
      const ranked = body.suggestions.map((s) => s.projectId);
      const entry = hits.get(c.kind) ?? { n: 0, top1: 0, top3: 0 };
      entry.n++;
      if (ranked[0] === c.projectId) entry.top1++;
      if (ranked.slice(0, 3).includes(c.projectId)) entry.top3++;
      hits.set(c.kind, entry);
    }
  }

  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
  const q = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  console.log(
    `\n${cases.length} e-mails, ${projects.length} projects in ${summary.organizations.length} organizations`,
  );
  console.log('kind           n     top-1     top-3');
  let n = 0;
  let top1 = 0;
  let top3 = 0;
  for (const [kind, e] of hits) {
    console.log(
      `${kind.padEnd(13)} ${String(e.n).padStart(3)}  ${pct(e.top1, e.n).padStart(8)}  ${pct(e.top3, e.n).padStart(8)}`,
    );
    n += e.n;
    top1 += e.top1;
    top3 += e.top3;
  }
  console.log(`${'all'.padEnd(13)} ${String(n).padStart(3)}  ${pct(top1, n).padStart(8)}  ${pct(top3, n).padStart(8)}`);
  console.log(
    `\nlatency (sequential, ${latencies.length} requests): suggestions p50 ${q(latencies, 0.5).toFixed(1)} ms, p99 ${q(latencies, 0.99).toFixed(1)} ms; ` +
      `baseline GET /v1/me p50 ${q(baseline, 0.5).toFixed(1)} ms, p99 ${q(baseline, 0.99).toFixed(1)} ms; ` +
      `ratio p50 ${(q(latencies, 0.5) / q(baseline, 0.5)).toFixed(2)}`,
  );
  await server.close();
  await database.close();
}

main().catch((err) => {
  // Driver errors carry every parameter of the failed query: the message and cause are enough.
  console.error(String(err?.message ?? err).slice(0, 600), err?.cause ? String(err.cause) : '');
  process.exit(1);
});
