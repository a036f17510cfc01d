// Rows that belong to no single project: organizations, people, settings, support issues, API keys.
import { createHash } from 'node:crypto';
import * as s from '../db/schema.js';
import { asciiEmail, DAY, HOUR, hex, type OrgPlan, type ProjectPlan, slug } from './model.js';
import type { Rng } from './random.js';
import { RowSet } from './rows.js';
import type { ScaleShape, SeedPasswords } from './shapes.js';
import * as v from './vocabulary.js';

/** Everything that belongs to no single project: organizations, people, settings, support issues. */
export function generatePlatform(
  rng: Rng,
  shape: ScaleShape,
  now: Date,
  passwords: SeedPasswords,
  passwordHashes: SeedPasswords,
) {
  const rows = new RowSet();
  const orgs: OrgPlan[] = [];
  const projects: ProjectPlan[] = [];
  const since = (days: number) => new Date(now.getTime() - days * DAY);
  const platform: PlatformDraft = { rng, rows, projects, usedEmails: new Set(), since, passwords, passwordHashes };

  for (let o = 0; o < shape.organizations; o++) {
    const name = v.organizationNames[o % v.organizationNames.length]!;
    const org: OrgPlan = { id: rng.id('org'), name, domain: `${slug(name)}.example`, people: [], accounts: [] };
    orgs.push(org);
    rows.add(s.organizations, { id: org.id, name, createdAt: since(720 - o) });
    rows.add(s.emailFilingSettings, {
      organizationId: org.id,
      aiSuggest: o % 2 === 0,
      updatedAt: since(30 + o),
      updatedById: null,
    });

    for (let u = 0; u < shape.usersPerOrg; u++) addPerson(platform, org, u);
    const admin = org.people[0]!;
    rows.add(s.activity, {
      id: rng.id('act'),
      organizationId: org.id,
      actorId: admin.id,
      actorName: admin.name,
      actorEmail: admin.email,
      action: 'settings_changed',
      title: 'E-mail filing settings updated',
      details: { aiSuggest: o % 2 === 0 },
      createdAt: since(30 + o),
    });

    for (let p = 0; p < shape.projectsPerOrg; p++) addProject(platform, org, o * shape.projectsPerOrg + p);
  }

  v.supportIssueSeeds.forEach((issue, i) => {
    rows.add(s.supportIssues, {
      id: rng.id('sup'),
      ...issue,
      createdAt: since(60 - i * 7),
      createdBy: 'support@sitefile.example',
    });
  });

  return { rows, orgs, projects };
}

export type Platform = ReturnType<typeof generatePlatform>;

/** What the platform's generators share while they run. */
interface PlatformDraft {
  rng: Rng;
  rows: RowSet;
  projects: ProjectPlan[];
  /** Addresses taken so far: a second person with the same name gets a numbered one. */
  usedEmails: Set<string>;
  since: (days: number) => Date;
  passwords: SeedPasswords;
  passwordHashes: SeedPasswords;
}

/** Person `u` of an organization: user, membership and `member_added` activity; the first two sign in. */
function addPerson(platform: PlatformDraft, org: OrgPlan, u: number) {
  const { rng, rows, usedEmails, since, passwords, passwordHashes } = platform;
  const first = rng.pick(v.firstNames);
  const last = rng.pick(v.lastNames);
  let email = asciiEmail(`${first}.${last}@${org.domain}`);
  for (let n = 2; usedEmails.has(email); n++) email = email.replace(/(\d*)@/, `${n}@`);
  usedEmails.add(email);
  const id = rng.id('usr');
  // The first two people are the sign-in accounts (an admin, a member); the third is another admin.
  const role = u === 0 || u === 2 ? 'admin' : 'member';
  const account = u < 2;
  const created = since(rng.int(30, 700));
  rows.add(s.users, {
    id,
    email,
    name: `${first} ${last}`,
    passwordHash: account ? passwordHashes[role] : null,
    staff: false,
    company: org.name,
    title: u === 0 ? 'Construction Manager' : rng.pick(v.staffTitles),
    phone: `+1 555 0${rng.int(100, 199)} ${rng.int(1000, 9999)}`,
    createdAt: created,
    updatedAt: new Date(created.getTime() + rng.int(0, 20) * DAY),
  });
  rows.add(s.organizationMembers, {
    id: rng.id('mem'),
    organizationId: org.id,
    userId: id,
    role,
    createdAt: created,
    updatedAt: created,
  });
  rows.add(s.activity, {
    id: rng.id('act'),
    organizationId: org.id,
    actorId: id,
    actorName: `${first} ${last}`,
    actorEmail: email,
    action: 'member_added',
    title: `${first} ${last} joined ${org.name}`,
    details: { role },
    createdAt: created,
  });
  org.people.push({ id, name: `${first} ${last}`, email, company: org.name });
  if (account) {
    org.accounts.push({
      userId: id,
      email,
      name: `${first} ${last}`,
      password: passwords[role],
      role,
      orgId: org.id,
    });
  }
}

/** Project `index` (counted over all organizations) of an organization. */
function addProject(platform: PlatformDraft, org: OrgPlan, index: number) {
  const { rng, rows, projects, since } = platform;
  const base = v.projectNames[index % v.projectNames.length]!;
  const round = Math.floor(index / v.projectNames.length);
  const project: ProjectPlan = {
    id: rng.id('prj'),
    name: round === 0 ? base : `${base} Phase ${round + 1}`,
    code: `P-${2041 + index * 7 + rng.int(0, 6)}`,
    org,
  };
  projects.push(project);
  rows.add(s.projects, {
    id: project.id,
    organizationId: org.id,
    name: project.name,
    code: project.code,
    createdAt: since(600 - index),
  });
}

/** API keys the organizations use for integrations, with their scopes, usage counters and a few
 *  reference commands (with their idempotency records). Their secrets are never shown. */
export function generateIntegrations(rng: Rng, now: Date, platform: Platform, secretHash: string): RowSet {
  const rows = new RowSet();
  const nowMs = now.getTime();
  const endpoints = [
    'GET /v1/organization/:orgId/project/:projectId/document/submittals',
    'GET /v1/organization/:orgId/activity',
    'GET /v1/organization/:orgId/project/:projectId/comms',
    'GET /v1/organization/:orgId/directory',
    'GET /v1/client/me',
  ];
  for (const org of platform.orgs) {
    const orgProjects = platform.projects.filter((p) => p.org === org);
    const admin = org.people[0]!;
    const keys = [
      { name: 'Scheduling sync', permissions: ['document:read', 'organization:read', 'project:read'], projects: [] },
      {
        name: 'BI export',
        permissions: ['document:read', 'email:read', 'project:read'],
        projects: orgProjects.slice(0, 2),
      },
    ];
    keys.forEach((key, k) => {
      const id = rng.uuid();
      const clientId = rng.uuid();
      const createdAt = new Date(nowMs - (200 - k * 30) * DAY);
      rows.add(s.apiKeys, {
        id,
        clientId,
        secretHash,
        name: key.name,
        description: `${key.name} for ${org.name}`,
        permissions: key.permissions,
        createdBy: admin.email,
        createdByUserId: admin.id,
        createdAt,
        updatedAt: createdAt,
      });
      if (key.projects.length === 0) {
        rows.add(s.apiKeyOrgScopes, { clientRowId: id, organizationId: org.id, grantedAt: createdAt });
      }
      for (const project of key.projects) {
        rows.add(s.apiKeyProjectScopes, {
          clientRowId: id,
          organizationId: org.id,
          projectId: project.id,
          grantedAt: createdAt,
        });
      }
      for (const endpoint of rng.sample(endpoints, 3)) {
        const count = rng.int(20, 5_000);
        rows.add(s.requestUsage, { clientRowId: id, endpoint, count, totalMs: count * rng.int(8, 120) });
      }
      addReferenceCommands(rows, rng, org.id, clientId, nowMs);
    });
  }
  return rows;
}

/** Two `ping` commands a key sent recently, each with the idempotency record of its reply. */
function addReferenceCommands(rows: RowSet, rng: Rng, organizationId: string, clientId: string, nowMs: number) {
  for (let c = 0; c < 2; c++) {
    const at = new Date(nowMs - rng.int(1, 20) * HOUR);
    const eventId = rng.id('evt');
    const entityId = `sync-${hex(rng, 1)}`;
    const idempotencyKey = rng.uuid();
    rows.add(s.commandEvents, {
      id: eventId,
      organizationId,
      callerKey: `client:${clientId}`,
      command: 'ping',
      entityId,
      note: 'nightly health check',
      createdAt: at,
    });
    rows.add(s.idempotencyRecords, {
      callerKey: `client:${clientId}`,
      idempotencyKey,
      organizationId,
      requestHash: createHash('sha256').update(`${entityId}:${idempotencyKey}`).digest('hex'),
      state: 'done',
      responseStatus: 200,
      responseHeaders: { 'content-type': 'application/json; charset=utf-8' },
      responseBody: Buffer.from(JSON.stringify({ eventId, status: 'applied', note: 'nightly health check' })),
      createdAt: at,
      expiresAt: new Date(at.getTime() + 24 * HOUR),
    });
  }
}
