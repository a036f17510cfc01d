// The file's test server (test/fixture-server.ts) with 197 generated documents, for each test file that imports
// this (vitest evaluates it once per file), and the requests and oracle the submittal tests share. The bindings
// are live.
import { beforeAll, expect } from 'vitest';
import { configureFixtureServer, f as fixtures, server } from '../../test/fixture-server.js';
import { ManualClock } from '../clock.js';
import {
  buildDocuments,
  type FixtureDocument,
  insertDocuments,
  matches,
  type OracleFilter,
  TODAY,
} from './documents.fixtures.js';

export { fixtures, server };
export let token: string;
export let a1: FixtureDocument[];
export let base: string;

configureFixtureServer({ clock: new ManualClock(`${TODAY}T12:00:00Z`) });

beforeAll(async () => {
  const { orgA, orgB, projectA1, projectA2, projectB1 } = fixtures;
  a1 = buildDocuments({ organizationId: orgA.id, projectId: projectA1.id, count: 140, seed: 1, prefix: 'a1' });
  await insertDocuments(server.database.db, [
    ...a1,
    ...buildDocuments({
      organizationId: orgA.id,
      projectId: projectA1.id,
      count: 30,
      seed: 2,
      prefix: 'a1x',
      formats: ['rfi', 'change', 'bulletin'],
    }),
    ...buildDocuments({ organizationId: orgA.id, projectId: projectA2.id, count: 12, seed: 3, prefix: 'a2' }),
    ...buildDocuments({ organizationId: orgB.id, projectId: projectB1.id, count: 15, seed: 4, prefix: 'b1' }),
  ]);
  token = (await fixtures.client(['document:read'], { orgs: [orgA.id] })).token;
  base = `/v1/organization/${orgA.id}/project/${projectA1.id}/document/submittals`;
}, 60_000);
/** Swaps the token the requests below send (a test that moves the clock needs a fresh one). */
export function setToken(value: string) {
  token = value;
}

export const url = (params: Record<string, string | number | undefined>) => {
  const query = new URLSearchParams(
    Object.entries(params).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();
  return query ? `${base}?${query}` : base;
};

export const get = async (
  params: Record<string, string | number | undefined>,
  init: { headers?: Record<string, string> } = {},
) => server.call(url(params), { token, headers: init.headers });

/** Every row of a list, page by page (limit 50), checking that no page repeats a uid. */
export async function walk(params: Record<string, string | number | undefined>, limit = 50) {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let total = -1;
  do {
    const res = await get({ ...params, limit, cursor });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    total = res.body.total;
    expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
    cursor = res.body.nextCursor ?? undefined;
    pages += 1;
    expect(pages).toBeLessThan(500);
  } while (cursor);
  expect(new Set(rows.map((row) => row.uid)).size).toBe(rows.length);
  return { rows, total, uids: rows.map((row) => row.uid as string) };
}

/** The same list as CSV: the unpaged query, in order. */
export async function csvUids(params: Record<string, string | number | undefined>) {
  const res = await get(params, { headers: { accept: 'text/csv' } });
  expect(res.status).toBe(200);
  const lines = (res.body as string).split('\r\n').filter(Boolean);
  expect(lines[0]?.startsWith('uid,id,')).toBe(true);
  return lines.slice(1).map((line) => line.split(',')[0] as string);
}

export const expectedUids = (f: OracleFilter) =>
  a1
    .filter((d) => matches(d, f))
    .map((d) => d.id)
    .sort();
