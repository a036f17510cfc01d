// The file's test server (test/fixture-server.ts) with 150 generated documents in three projects, for each test
// file that imports this (vitest evaluates it once per file): the admin lists (staff, every organization) and the
// generic list of one project, with the requests their tests share. The bindings are live.
import { beforeAll, expect } from 'vitest';
import { configureFixtureServer, ctx, f as fixtures, server } from '../../test/fixture-server.js';
import type { CallResult } from '../../test/harness.js';
import { ManualClock } from '../clock.js';
import {
  buildDocuments,
  type FixtureDocument,
  insertDocuments,
  type Params,
  TODAY,
  walkList,
} from './documents.fixtures.js';

export { ctx, fixtures, server };
export let staff: string;
export let all: FixtureDocument[];

export const formats = ['submittal', 'rfi', 'change', 'bulletin', 'instruction'];

configureFixtureServer({ clock: new ManualClock(`${TODAY}T12:00:00Z`) });

beforeAll(async () => {
  const { orgA, orgB, projectA1, projectA2, projectB1 } = fixtures;
  all = [
    ...buildDocuments({ organizationId: orgA.id, projectId: projectA1.id, count: 70, seed: 11, prefix: 'a1', formats }),
    ...buildDocuments({ organizationId: orgA.id, projectId: projectA2.id, count: 30, seed: 12, prefix: 'a2', formats }),
    ...buildDocuments({ organizationId: orgB.id, projectId: projectB1.id, count: 50, seed: 13, prefix: 'b1', formats }),
  ];
  await insertDocuments(server.database.db, all);
  staff = fixtures.staff.token;
}, 60_000);

export { type Params, query } from './documents.fixtures.js';

/** Every page of a list as staff (unless `token` says otherwise); no row appears twice. */
export async function walk(path: string, params: Params, token = staff, limit = 50) {
  const list = await walkList(server, path, params, token, limit);
  expect(new Set(list.uids).size).toBe(list.uids.length);
  return list;
}

export const ids = (docs: FixtureDocument[]) => docs.map((d) => d.id).sort();
export const sorted = (uids: string[]) => [...uids].sort();

export const expectDocuments = (res: CallResult) => {
  expect(res.status).toBe(200);
  expect(Array.isArray(res.body.data)).toBe(true);
};
