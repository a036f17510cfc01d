// The demo data seeded once per test file that imports this (vitest evaluates it once per file), a
// server on it, and raw-query helpers for the seed tests.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { openTestDatabase, startTestServer, type TestServer } from '../../test/harness.js';
import { createFsBlobStore } from '../blobs/store.js';
import { loadConfig } from '../config.js';
import type { Database, Db } from '../db/connection.js';
import { selectRows } from '../db/rows.js';
import { type DemoData, ensureDemoData } from './demo.js';

export const now = new Date('2026-06-15T09:30:00.000Z');
export const dataDir = mkdtempSync(path.join(tmpdir(), 'sitefile-seed-'));
export const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
export const blobs = createFsBlobStore(path.join(dataDir, 'blobs'));

let database: Database;
export let db: Db;
export let demo: DemoData;
export let server: TestServer;

/** Rows of a raw query, typed as the test expects them (the test's assertions check them). */
export const rowsOf = <T>(target: Db, query: SQL): Promise<T[]> => selectRows(target, query, z.custom<T>());
export const rows = <T = Record<string, unknown>>(query: SQL) => rowsOf<T>(db, query);
export const count = async (query: SQL): Promise<number> => Number((await rows<{ n: string | number }>(query))[0]!.n);

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  demo = (await ensureDemoData(db, config, now))!;
  server = await startTestServer({ database, env: { DATA_DIR: dataDir } });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});
