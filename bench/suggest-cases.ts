// The evaluation set of bench/suggest.ts, generated from the seeded database (its header describes each kind):
// the kinds drawn from each project's seeded mail, then the shared-firm kinds, filed as history through the API.
import { eq, inArray } from 'drizzle-orm';
import type { openDatabase } from '../server/db/connection.js';
import { documents, filedEmails, organizationMembers, users } from '../server/db/schema.js';
import { domainOf } from '../server/filing/message.js';
import { slug } from '../server/seed/model.js';
import type { Rng } from '../server/seed/random.js';

export type Kind =
  | 'held-out'
  | 'new sender'
  | 'forwarded'
  | 'two projects'
  | 'internal'
  | 'shared: code'
  | 'shared: name'
  | 'shared: document'
  | 'shared: attachment'
  | 'shared: thread'
  | 'shared: forwarded'
  | 'shared: no clue';
/** Kinds whose content does not identify the project: outside the headline. */
export const ambiguousKinds = new Set<Kind>(['shared: no clue']);
export type Project = { id: string; name: string; code: string; orgId: string };
/** What the seed put in one project: its consultants and its team (internal addresses). */
export type Seeded = { consultants: string[]; team: string[] };
export interface Case {
  kind: Kind;
  orgId: string;
  projectId: string;
  body: Record<string, unknown>;
}
type Db = Awaited<ReturnType<typeof openDatabase>>['db'];
/** What every builder draws on: the random source (one, so the set follows --seed), cases per project, today. */
export interface CaseOptions {
  rng: Rng;
  perProject: number;
  now: Date;
}
/** Files one e-mail (the JSON form) into a project through the API. */
export type FileEmail = (project: Project, json: Record<string, unknown>) => Promise<void>;

/**
 * The kinds drawn from the seed's own mail (held-out, new sender, forwarded, two projects, internal), and
 * per project its consultants and team. The held-out threads are deleted from filed_emails.
 */
export async function seededCases(db: Db, orgIds: string[], projects: Project[], options: CaseOptions) {
  const { rng, perProject } = options;
  const cases: Case[] = [];
  const orgDomain = await internalDomains(db, orgIds);
  const seeded = new Map<string, Seeded>();
  for (const project of projects) {
    const rows = await db.select().from(filedEmails).where(eq(filedEmails.projectId, project.id));
    const internal = orgDomain.get(project.orgId)!;
    const consultants = [...new Set(rows.map((r) => r.fromAddress.toLowerCase()))].filter(
      (a) => domainOf(a) !== internal,
    );
    const team = [...new Set(rows.map((r) => r.fromAddress.toLowerCase()))].filter((a) => domainOf(a) === internal);
    const others = projects.filter((p) => p.orgId === project.orgId && p.id !== project.id);
    seeded.set(project.id, { consultants, team });

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
    cases.push(...writtenCases(rng, perProject, project, others, { consultants, team }));
  }
  return { cases, seeded };
}

/** Per organization, the domain of its people (of its first member). */
async function internalDomains(db: Db, orgIds: string[]) {
  const orgDomain = new Map<string, string>();
  for (const orgId of orgIds) {
    const [member] = await db
      .select({ email: users.email })
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(eq(organizationMembers.organizationId, orgId))
      .limit(1);
    orgDomain.set(orgId, domainOf(member!.email.toLowerCase()));
  }
  return orgDomain;
}

/** New e-mails about one project: new sender, forwarded, two projects, internal. */
function writtenCases(rng: Rng, perProject: number, project: Project, others: Project[], people: Seeded): Case[] {
  const { consultants, team } = people;
  const cases: Case[] = [];
  const push = (kind: Kind, body: Record<string, unknown>) =>
    cases.push({ kind, orgId: project.orgId, projectId: project.id, body });
  for (let i = 0; i < perProject / 3; i++) {
    const consultant = rng.pick(consultants);
    const colleague = rng.pick(team);
    push('new sender', {
      subject: rng.pick(['Quick question', 'Following up', 'Revised schedule', 'Site visit next week']),
      from: `newcomer${i}@${domainOf(consultant)}`,
      to: [colleague],
      cc: [],
      bodyPreview: 'Hello, I have taken over from my colleague on this one. Could you send the latest set?',
      attachmentNames: [],
    });
    const forwarder = rng.pick(team);
    push('forwarded', {
      subject: `FW: ${rng.pick(['Comments', 'Please review', 'Updated markups', 'Answer'])}`,
      from: forwarder,
      to: [rng.pick(team.filter((t) => t !== forwarder).concat(colleague))],
      cc: [],
      bodyPreview: `FYI, see below.\n\n---------- Forwarded message ---------\nFrom: ${consultant}\nDate: Mon, 4 May 2026\nSubject: Comments\n\nPlease find our comments attached.`,
      attachmentNames: ['comments.pdf'],
    });
    if (others.length > 0) {
      const other = rng.pick(others);
      push('two projects', {
        subject: `${project.code} – interface with ${other.name}`,
        from: consultant,
        to: [colleague],
        cc: [],
        bodyPreview: `The boundary between ${project.code} and ${other.name} needs agreeing before the next pour.`,
        attachmentNames: [],
      });
    }
    push('internal', {
      subject: rng.pick(['Handover', 'Tomorrow', 'Resourcing', 'Budget check']),
      from: colleague,
      to: [rng.pick(team)],
      cc: [],
      bodyPreview: `Can you cover the ${project.name} site walk on Thursday? I am on the other job.`,
      attachmentNames: [],
    });
  }
  return cases;
}

/**
 * The shared-firm kinds (see bench/suggest.ts's header). Files the firm's history into each project of a group
 * through the API, then returns the held-out e-mails.
 */
export async function sharedFirmCases(
  db: Db,
  projects: Project[],
  seeded: Map<string, Seeded>,
  fileEmail: FileEmail,
  options: CaseOptions,
): Promise<Case[]> {
  const { rng } = options;
  const cases: Case[] = [];
  const orgIds = [...new Set(projects.map((p) => p.orgId))];
  let conversation = 0;
  const nextConversationId = () => `bench-shared-${++conversation}`;
  for (const orgId of orgIds) {
    const inOrg = projects.filter((p) => p.orgId === orgId);
    for (let start = 0; start + 1 < inOrg.length; start += 3) {
      const group = inOrg.slice(start, start + 3);
      const firm = firmOf(rng, group[0]!, seeded);
      const uniqueNumbers = await numbersOnlyIn(
        db,
        group.map((p) => p.id),
      );
      const threads = new Map<string, string[]>();
      for (const [index, project] of group.entries()) {
        const team = seeded.get(project.id)!.team;
        threads.set(
          project.id,
          await fileFirmHistory(project, index, team, firm, fileEmail, nextConversationId, options),
        );
      }
      for (const project of group) {
        const known = {
          team: seeded.get(project.id)!.team,
          threads: threads.get(project.id)!,
          numbers: uniqueNumbers.get(project.id) ?? [],
        };
        cases.push(...firmCases(project, firm.people, known, options));
      }
    }
  }
  return cases;
}

type Firm = { people: string[]; domain: string };

/** The seeded firm of the group's first project, under one domain for the whole group. */
function firmOf(rng: Rng, origin: Project, seeded: Map<string, Seeded>): Firm {
  const firmAddress = rng.pick(seeded.get(origin.id)!.consultants);
  const originDomain = domainOf(firmAddress);
  const domain = originDomain.replace(`-${slug(origin.code)}.`, '.');
  const people = seeded
    .get(origin.id)!
    .consultants.filter((a) => domainOf(a) === originDomain)
    .map((a) => `${a.split('@')[0]}@${domain}`);
  return { people, domain };
}

/** Files 2–6 e-mails from the firm into the project as history; returns their conversation ids. */
async function fileFirmHistory(
  project: Project,
  index: number,
  team: string[],
  firm: Firm,
  fileEmail: FileEmail,
  nextConversationId: () => string,
  { rng, now }: CaseOptions,
): Promise<string[]> {
  const { people } = firm;
  const ids: string[] = [];
  const history = rng.int(2, 6);
  // Each project has a lead at the firm who sends most of its mail: a held-out e-mail from one lead
  // about another lead's project meets history that points elsewhere.
  const lead = people[index % people.length]!;
  for (let i = 0; i < history; i++) {
    const conversationId = nextConversationId();
    ids.push(conversationId);
    await fileEmail(project, {
      subject: `${i % 2 === 0 ? project.code : project.name} – ${rng.pick(topics)}`,
      from: rng.chance(0.75) ? lead : rng.pick(people),
      to: [rng.pick(team)],
      sentAt: new Date(now.getTime() - rng.int(1, 120) * 86_400_000).toISOString(),
      internetMessageId: `<${conversationId}@${firm.domain}>`,
      conversationId,
      bodyText: `${rng.pick(greetings)}\n\n${rng.pick(generic)}\n\nRegards`,
    });
  }
  return ids;
}

/** New e-mails from the firm about one project, named only by their content (or not at all: no clue). */
function firmCases(
  project: Project,
  people: string[],
  known: { team: string[]; threads: string[]; numbers: string[] },
  { rng, perProject }: CaseOptions,
): Case[] {
  const { team, threads, numbers } = known;
  const cases: Case[] = [];
  const perKind = Math.max(1, Math.round(perProject / 3));
  for (let i = 0; i < perKind; i++) {
    const from = rng.pick(people);
    const to = [rng.pick(team)];
    const topic = rng.pick(topics);
    const push = (kind: Kind, body: Record<string, unknown>) =>
      cases.push({
        kind,
        orgId: project.orgId,
        projectId: project.id,
        body: { to, cc: [], attachmentNames: [], from, ...body },
      });
    const plain = `${rng.pick(greetings)}\n\n${rng.pick(generic)}\n\nRegards`;
    push('shared: code', { subject: `${project.code} ${topic}`, bodyPreview: plain });
    push('shared: name', {
      subject: topic,
      bodyPreview: `${rng.pick(greetings)}\n\nRegarding ${project.name}: ${rng.pick(generic)}\n\nRegards`,
    });
    const number = numbers.length > 0 ? rng.pick(numbers) : undefined;
    if (number) push('shared: document', { subject: `${number} – ${topic}`, bodyPreview: plain });
    push('shared: attachment', {
      subject: topic,
      bodyPreview: `${rng.pick(greetings)}\n\nPlease find the attached.\n\nRegards`,
      attachmentNames: [
        `${project.code}-${rng.pick(['A-201', 'S-110', 'M-401'])} rev ${rng.pick(['B', 'C', 'D'])}.pdf`,
      ],
    });
    push('shared: thread', { subject: `RE: ${topic}`, conversationId: rng.pick(threads), bodyPreview: plain });
    const colleague = rng.pick(team);
    const clue = number ? rng.pick([`${number} – ${topic}`, `${project.code} ${topic}`]) : `${project.code} ${topic}`;
    push('shared: forwarded', {
      subject: `${rng.pick(['Fwd:', 'FW:'])} ${i % 2 === 0 ? clue : topic}`,
      from: colleague,
      to: [rng.pick(team.filter((t) => t !== colleague).concat(to))],
      bodyPreview:
        `FYI, see below.\n\n---------- Forwarded message ---------\nFrom: ${from}\nDate: Mon, 4 May 2026\n` +
        `Subject: ${clue}\n\n${plain}`,
    });
    push('shared: no clue', { subject: topic, bodyPreview: plain });
  }
  return cases;
}

/** Per project, the document numbers that no other project of the group has. */
async function numbersOnlyIn(db: Db, projectIds: string[]) {
  const rows = await db
    .select({ projectId: documents.projectId, number: documents.number })
    .from(documents)
    .where(inArray(documents.projectId, projectIds));
  const holders = new Map<string, Set<string>>();
  for (const r of rows) holders.set(r.number, (holders.get(r.number) ?? new Set()).add(r.projectId));
  const only = new Map<string, string[]>();
  for (const [number, ids] of holders) {
    if (ids.size !== 1 || !/^[A-Z]+-\d+$/.test(number)) continue;
    const [id] = ids;
    only.set(id!, [...(only.get(id!) ?? []), number]);
  }
  return only;
}

const topics = [
  'Quick question',
  'Following up',
  'Revised schedule',
  'Site visit next week',
  'Comments',
  'Updated markups',
];
const greetings = ['Hi all,', 'Hello,', 'Good morning,'];
const generic = [
  'Please see our comments on the latest issue; we will need a response by Friday.',
  'Could you confirm the revised dates? We are planning resources for next month.',
  'Attached are our markups. Two items remain open from the last meeting.',
  'We have reviewed the package and have no further comments at this stage.',
];
