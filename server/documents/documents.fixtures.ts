import { expect } from 'vitest';
import { documentStatuses, reviewStatuses } from '../../shared/documents.js';
import type { TestServer } from '../../test/harness.js';
import type { Db } from '../db/connection.js';
import {
  activity,
  documentApprovers,
  documentAssignees,
  documentConsultants,
  documentDistribution,
  documents,
  reviewFindings,
} from '../db/schema.js';

/**
 * Deterministic documents for the list tests, inserted through drizzle, plus what the tests need to
 * compute expected answers in JavaScript (the oracle). Titles use prefix-free words and no punctuation so
 * JavaScript's string order agrees with the database collation.
 */
export const TODAY = '2025-06-15';

const words = ['Anchor', 'Beam', 'Concrete', 'Door', 'Elevator', 'Facade', 'Glazing', 'Handrail', 'Joist', 'Roofing'];
const divisions = [
  '03 30 00 Cast in Place Concrete',
  '07 10 00 Dampproofing and Waterproofing',
  '08 80 00 Glazing',
  '05 12 00 Structural Steel',
];
const people = [
  { userId: 'usr_pat', name: 'Pat Lee', email: 'pat@harbor.test' },
  { userId: 'usr_kim', name: 'Kim Ortega', email: 'kim@harbor.test' },
  { userId: 'usr_ravi', name: 'Ravi Shah', email: 'ravi@consult.test' },
];

export interface FixtureFinding {
  source: 'spec' | 'quality';
  severity: string;
  dismissed: boolean;
  deleted: boolean;
  title: string;
}

export interface FixtureDocument {
  id: string;
  organizationId: string;
  projectId: string;
  number: string;
  format: string;
  type: string;
  title: string;
  status: string;
  reviewStatus: string | null;
  priority: string | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  receivedAt: string | null;
  closedAt: string | null;
  referenceNumber: string | null;
  divisionTitle: string | null;
  assignees: { userId: string; name: string }[];
  findings: FixtureFinding[];
  activityCount: number;
}

/** mulberry32: a small seeded generator, so every run builds the same rows. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const maybe = <T>(chance: number, value: () => T): T | null => (next() < chance ? value() : null);
  const some = <T>(items: readonly T[], max: number): T[] => items.filter(() => next() < max / items.length);
  return { next, pick, maybe, some };
}

const day = (offset: number) => new Date(Date.UTC(2025, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
/** Timestamps on whole hours, so several rows share a value and the uid tiebreak matters. */
const hour = (offset: number) => new Date(Date.UTC(2025, 0, 1) + offset * 3_600_000).toISOString();

const typeOf: Record<string, string> = {
  bulletin: 'Bulletin',
  certificate: 'Certificate',
  change: 'CO',
  instruction: 'SI',
  quote: 'Quote',
  rfi: 'RFI',
  submittal: 'Submittal',
};

export interface DocumentSpread {
  organizationId: string;
  projectId: string;
  count: number;
  /** Formats to draw from; submittals only by default. */
  formats?: readonly string[];
  seed: number;
  prefix: string;
}

export function buildDocuments(spread: DocumentSpread): FixtureDocument[] {
  const r = seeded(spread.seed);
  const formats = spread.formats ?? ['submittal'];
  return Array.from({ length: spread.count }, (_, i) => {
    const format = r.pick(formats);
    const created = Math.floor(r.next() * 60) * 24 + Math.floor(r.next() * 3);
    const status = r.pick(documentStatuses);
    const findings: FixtureFinding[] = Array.from({ length: Math.floor(r.next() * 3) }, (_, n) => {
      const source = r.pick(['spec', 'quality'] as const);
      return {
        source,
        severity: source === 'spec' ? r.pick(['mismatch', 'minor']) : r.pick(['required', 'advisory']),
        dismissed: r.next() < 0.2,
        deleted: r.next() < 0.2,
        title: `Finding ${n + 1}`,
      };
    });
    return {
      id: `${spread.prefix}_${String(i).padStart(4, '0')}`,
      organizationId: spread.organizationId,
      projectId: spread.projectId,
      number: `${format === 'submittal' ? 'SUB' : format.slice(0, 3).toUpperCase()}-${spread.prefix}-${String(i).padStart(4, '0')}`,
      format,
      type: typeOf[format] ?? 'Submittal',
      title: `${r.pick(words)} ${Math.floor(r.next() * 5)}`,
      status,
      reviewStatus: format === 'submittal' ? r.maybe(0.8, () => r.pick(reviewStatuses)) : null,
      priority: r.maybe(0.7, () => r.pick(['low', 'normal', 'high'])),
      dueDate: r.maybe(0.75, () => day(120 + Math.floor(r.next() * 90))),
      createdAt: hour(created),
      updatedAt: hour(created + Math.floor(r.next() * 200)),
      receivedAt: r.maybe(0.7, () => hour(created + 5)),
      closedAt: r.maybe(0.35, () => hour(created + 24 * Math.floor(1 + r.next() * 40))),
      referenceNumber: r.maybe(0.8, () => `REF-${String(Math.floor(r.next() * 40)).padStart(3, '0')}`),
      divisionTitle: r.maybe(0.85, () => r.pick(divisions)),
      assignees: r.some(people, 1.5).map(({ userId, name }) => ({ userId, name })),
      findings,
      activityCount: Math.floor(r.next() * 3),
    };
  });
}

export async function insertDocuments(db: Db, docs: readonly FixtureDocument[]): Promise<void> {
  if (docs.length === 0) return;
  await db.insert(documents).values(docs.map(documentRow));
  await insertParticipants(db, docs);
  await insertFindings(db, docs);
  await insertActivity(db, docs);
}

const documentRow = (d: FixtureDocument) => ({
  id: d.id,
  organizationId: d.organizationId,
  projectId: d.projectId,
  number: d.number,
  format: d.format,
  type: d.type,
  title: d.title,
  description: `Description of ${d.number}`,
  status: d.status,
  priority: d.priority,
  dueDate: d.dueDate,
  issuedAt: null,
  createdAt: new Date(d.createdAt),
  updatedAt: new Date(d.updatedAt),
  referenceNumber: d.referenceNumber,
  divisionTitle: d.divisionTitle,
  reviewStatus: d.reviewStatus,
  receivedAt: d.receivedAt ? new Date(d.receivedAt) : null,
  closedAt: d.closedAt ? new Date(d.closedAt) : null,
  ballInCourt: d.assignees[0] ? { userId: d.assignees[0].userId, name: d.assignees[0].name } : null,
  searchText: [`Description of ${d.number}`, d.divisionTitle].filter(Boolean).join(' '),
});

/** Assignees (the first also approves), the distribution list and a consultant. */
async function insertParticipants(db: Db, docs: readonly FixtureDocument[]) {
  const assignees = docs.flatMap((d) =>
    d.assignees.map((a) => ({ organizationId: d.organizationId, documentId: d.id, ...a })),
  );
  if (assignees.length > 0) await db.insert(documentAssignees).values(assignees);
  const approvers = docs.flatMap((d) =>
    d.assignees.slice(0, 1).map((a) => ({
      organizationId: d.organizationId,
      documentId: d.id,
      userId: a.userId,
      name: a.name,
      email: people.find((p) => p.userId === a.userId)?.email ?? '',
      status: 'pending',
    })),
  );
  if (approvers.length > 0) await db.insert(documentApprovers).values(approvers);
  await db.insert(documentDistribution).values(
    docs.map((d) => ({
      organizationId: d.organizationId,
      documentId: d.id,
      email: 'site@harbor.test',
      name: 'Site Office',
    })),
  );
  await db.insert(documentConsultants).values(
    docs.map((d) => ({
      id: `${d.id}_c`,
      organizationId: d.organizationId,
      documentId: d.id,
      type: 'structural',
      company: 'Stone Engineering',
      status: 'pending',
    })),
  );
}

async function insertFindings(db: Db, docs: readonly FixtureDocument[]) {
  const findings = docs.flatMap((d) =>
    d.findings.map((f, n) => ({
      id: `${d.id}_f${n}`,
      organizationId: d.organizationId,
      documentId: d.id,
      source: f.source,
      severity: f.severity,
      title: f.title,
      description: `${f.title} of ${d.number}`,
      key: `key-${n}`,
      confidence: 0.5,
      dismissed: f.dismissed,
      deletedAt: f.deleted ? new Date('2025-03-01T00:00:00Z') : null,
      createdAt: new Date(Date.UTC(2025, 1, 1, n)),
    })),
  );
  if (findings.length > 0) await db.insert(reviewFindings).values(findings);
}

/** `activityCount` status changes a document. */
async function insertActivity(db: Db, docs: readonly FixtureDocument[]) {
  const events = docs.flatMap((d) =>
    Array.from({ length: d.activityCount }, (_, n) => ({
      id: `${d.id}_a${n}`,
      organizationId: d.organizationId,
      projectId: d.projectId,
      documentId: d.id,
      actorName: 'Pat Lee',
      actorEmail: 'pat@harbor.test',
      action: 'status_changed',
      title: `Status changed on ${d.number}`,
    })),
  );
  if (events.length > 0) await db.insert(activity).values(events);
}

// --- Reading a list back ---

export type Params = Record<string, string | number | undefined>;

/** A query string of the parameters that are set. */
export const query = (params: Params) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();

/** Every page of a list, followed by its cursors: the rows, their uids and the list's total. */
export async function walkList(server: TestServer, path: string, params: Params, token: string, limit: number) {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  let total = -1;
  do {
    const res = await server.call(`${path}?${query({ ...params, limit, cursor })}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    total = res.body.total;
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  return { rows, total, uids: rows.map((r) => r.uid as string) };
}

// --- Oracle: the filter semantics of the issue, in JavaScript ---

const terminal = new Set(['closed', 'cancelled', 'locked', 'accepted', 'approved']);

export const activeFindings = (d: FixtureDocument, lens: 'high' | 'any') =>
  d.findings.filter(
    (f) =>
      !f.deleted &&
      !f.dismissed &&
      (lens === 'any' ||
        (f.source === 'spec' && f.severity === 'mismatch') ||
        (f.source === 'quality' && f.severity === 'required')),
  );

export interface OracleFilter {
  status?: string[];
  reviewStatus?: string[];
  open?: boolean;
  overdue?: boolean;
  reviewHint?: 'high' | 'any';
  dueDate?: [string, string];
  closedAt?: [string, string];
}

const inRange = (value: string | null, [from, to]: [string, string]) =>
  value !== null && (!from || value.slice(0, 10) >= from) && (!to || value.slice(0, 10) <= to);

export const matches = (d: FixtureDocument, f: OracleFilter): boolean =>
  (!f.status || f.status.includes(d.status)) &&
  (!f.reviewStatus || (d.reviewStatus !== null && f.reviewStatus.includes(d.reviewStatus))) &&
  (!f.open || !terminal.has(d.status)) &&
  (!f.overdue || (d.dueDate !== null && d.dueDate < TODAY && !terminal.has(d.status))) &&
  (!f.reviewHint || activeFindings(d, f.reviewHint).length > 0) &&
  (!f.dueDate || inRange(d.dueDate, f.dueDate)) &&
  (!f.closedAt || inRange(d.closedAt, f.closedAt));

/** The query string of an oracle filter, in the submittal list's parameter names. */
export function filterParams(f: OracleFilter): Record<string, string> {
  const params: Record<string, string> = {};
  if (f.status) params['filter.status'] = f.status.join(',');
  if (f.reviewStatus) params['filter.reviewStatus'] = f.reviewStatus.join(',');
  if (f.open) params['filter.open'] = 'true';
  if (f.overdue) params['filter.overdue'] = 'true';
  if (f.reviewHint) params['filter.reviewHint'] = f.reviewHint;
  if (f.dueDate) params['filter.dueDate'] = f.dueDate.join(',');
  if (f.closedAt) params['filter.closedAt'] = f.closedAt.join(',');
  return params;
}
