import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import type { Database } from '../db/client.js';
import { CSV_MAX_ROWS, csvRowCap, streamCsv } from './csv.js';

// The helper on its own, over a real database and a real socket; the document and activity exports
// test it again through their endpoints.
let database: Database;
let base: string;
let close: () => Promise<void>;

type Row = { n: number; label: string | null; tags: string[] };

beforeAll(async () => {
  database = await openTestDatabase();
  const app = express();
  app.get('/rows', async (req, res) => {
    const count = Number(req.query.count);
    const limit = csvRowCap(req.query.limit === undefined ? undefined : Number(req.query.limit));
    await streamCsv<Row>(res, {
      db: database.db,
      query: sql`select n, case n % 4 when 0 then '=SUM(A1)' when 1 then 'say "hi", ok' when 2 then null else '-1+2' end as label,
        array['a', 'b,c'] as tags from generate_series(1, ${count}::int) as n order by n`,
      columns: [
        { header: 'number', value: (row) => row.n },
        { header: 'label', value: (row) => row.label },
        { header: 'tags', value: (row) => row.tags },
      ],
      limit,
      fileName: 'rows export.csv',
      batchSize: 7,
    });
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await close();
  await database.close();
});

const lines = (text: string) => text.split('\r\n').filter((line) => line !== '');

describe('streamCsv', () => {
  it('writes a header, RFC 4180 quoting, neutralised formulas and flattened arrays', async () => {
    const res = await fetch(`${base}/rows?count=4`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="rows_export.csv"');
    expect(lines(await res.text())).toEqual([
      'number,label,tags',
      '1,"say ""hi"", ok","a; b,c"',
      '2,,"a; b,c"',
      '3,\'-1+2,"a; b,c"',
      '4,\'=SUM(A1),"a; b,c"',
    ]);
  });

  it('streams every row across many batches when under the cap', async () => {
    const text = await (await fetch(`${base}/rows?count=100`)).text();
    const rows = lines(text);
    expect(rows).toHaveLength(101);
    expect(rows.at(-1)).toMatch(/^100,/);
    expect(text).not.toContain('WARNING');
  });

  it('cuts at the limit and appends the truncation row', async () => {
    const rows = lines(await (await fetch(`${base}/rows?count=30&limit=14`)).text());
    expect(rows).toHaveLength(1 + 14 + 1);
    expect(rows[14]).toMatch(/^14,/);
    expect(rows.at(-1)).toBe('# WARNING: truncated at 14 rows');
  });

  it('does not warn when the row count equals the limit', async () => {
    const rows = lines(await (await fetch(`${base}/rows?count=14&limit=14`)).text());
    expect(rows).toHaveLength(15);
    expect(rows.at(-1)).toMatch(/^14,/);
  });

  it('stops and frees the database when the client goes away mid-export', async () => {
    const aborted = new AbortController();
    const res = await fetch(`${base}/rows?count=300000`, { signal: aborted.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    aborted.abort();
    await reader.read().catch(() => undefined);
    // The cursor's transaction has ended: the next export (on PGlite's single connection too) is served.
    const next = await fetch(`${base}/rows?count=3`);
    expect(lines(await next.text())).toHaveLength(4);
  });

  it('clamps the row cap to 100000', () => {
    expect(csvRowCap(undefined)).toBe(CSV_MAX_ROWS);
    expect(csvRowCap(5_000_000)).toBe(CSV_MAX_ROWS);
    expect(csvRowCap(3)).toBe(3);
  });
});
