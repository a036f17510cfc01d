import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import { openInLibreOffice } from '../../test/libreoffice.js';
import { listenOnLoopback } from '../../test/loopback-server.js';
import { itNeeds } from '../../test/system-tools.js';
import { type Database, poolOf } from '../db/connection.js';
import type { CsvColumn } from '../db/csv-cells.js';
import type { CsvExport } from '../db/csv-export.js';
import { csvChunks } from '../db/csv-export.js';
import { CSV_MAX_ROWS, csvRowCap } from '../listing.js';
import { compressAnswers } from './compression.js';
import { sendCsv } from './csv.js';

// The export on its own, over a real database and a real socket, plain and compressed, checked against a CSV
// writer written here from the rules; the document and activity exports test it again through their endpoints.
let database: Database;
let base: string;
let close: () => Promise<void>;

const columns: CsvColumn[] = [
  { header: 'number', value: sql`n`, integer: true },
  { header: 'label', value: sql`label` },
  { header: 'tags', value: sql`tags` },
];

// Values an outside sender can put in a subject or a name.
const hostile = [
  'plain',
  'say "hi", ok',
  "Quote\r=cmd|' /C calc'!A0",
  'line one\nline two',
  'crlf\r\n@SUM(1)',
  '=SUM(A1)',
  '+1',
  '-1+2',
  '@x',
  ' =1+1',
  '\t=1+1',
  '\r\n+1',
  '\u00a0\u3000-2',
  '\tplain tab',
  '\r',
  'a=b, not a formula',
  '',
  'ünïcödé 😀 "quoted"',
  '#hash',
];

/** What a spreadsheet must read back from each hostile value (the rule, written here independently). */
const neutralised = (value: string) => (/^(?:[\t\r]|\s*[=+\-@])/.test(value) ? `'${value}` : value);

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`create table csv_probe (n int primary key, label text, tags text)`);
  const rows = hostile.map((label, i) => sql`(${i + 1}, ${label}, ${i % 3 === 0 ? null : 'a; b,c'})`);
  await database.db.execute(sql`insert into csv_probe values ${sql.join(rows, sql`, `)}`);
  await database.db.execute(sql`insert into csv_probe (n, label) values (0, null)`);
  await database.db.execute(sql`create table csv_rows as
    select n, case n % 4 when 0 then '=SUM(A1)' when 1 then 'say "hi", ok' when 2 then null else '-1+2' end as label,
      'a; b,c' as tags
    from generate_series(1, 300000) as n`);
  await database.db.execute(sql`alter table csv_rows add primary key (n)`);
  await database.db.execute(sql`analyze csv_rows`);
  const app = express();
  // Rows in the order of n (the primary key): `count` rows of csv_rows, or csv_probe.
  const exportOf = (req: express.Request): CsvExport => ({
    db: database.db,
    from: req.query.count
      ? sql`from csv_rows where n <= ${Number(req.query.count)} order by n`
      : sql`from csv_probe order by n`,
    columns,
    limit: csvRowCap(req.query.limit === undefined ? undefined : Number(req.query.limit)),
  });
  const send = (res: express.Response, chunks: AsyncIterable<string | Buffer>) =>
    sendCsv(res, { fileName: 'rows export.csv', chunks }, 30_000);
  app.get('/auto', (req, res) => send(res, csvChunks(exportOf(req))));
  // Wide rows of csv_rows whose row GATED_ROW waits for the advisory lock GATE_LOCK: the test holds it to
  // keep the COPY running after its first rows.
  app.get('/gated', (req, res) =>
    send(
      res,
      csvChunks({
        ...exportOf(req),
        columns: [
          ...columns,
          {
            header: 'pad',
            value: sql`case when n = ${GATED_ROW} then pg_advisory_xact_lock_shared(${GATE_LOCK})::text else '' end
              || repeat('x', 300)`,
          },
        ],
      }),
    ),
  );
  app.get('/compressed', compressAnswers(), (req, res) => send(res, csvChunks(exportOf(req))));
  // fetch reuses a kept-alive socket for the next test: listenOnLoopback keeps it past a loaded machine's stall.
  const listening = await listenOnLoopback(createServer(app));
  base = `http://127.0.0.1:${listening.port}`;
  close = listening.close;
}, 120_000);
afterAll(async () => {
  await close();
  await database.close();
});

const GATE_LOCK = 4242;
const GATED_ROW = 1000;

/** The ways to ask for an export: plain, and compressed on the way. */
const paths = () => ['auto', 'compressed'];

/** An RFC 4180 field, from the rule (quoted when it holds `"`, `,`, CR or LF; quotes doubled): the oracle. */
const rfc4180Field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** An export's bytes read straight from its chunks, without a socket. */
async function textOf(chunks: AsyncIterable<string | Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

const lines = (text: string) => text.split('\r\n').filter((line) => line !== '');
const strict = (text: string): string[][] =>
  parse(text, { record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false, skip_empty_lines: false });

describe('CSV exports', () => {
  it('writes quoted CR/LF and neutralised formulas, the same bytes by either path', async () => {
    const expected = [
      'number,label,tags',
      '0,,',
      '1,plain,',
      '2,"say ""hi"", ok","a; b,c"',
      `3,"Quote\r=cmd|' /C calc'!A0","a; b,c"`,
      '4,"line one\nline two",',
      '5,"crlf\r\n@SUM(1)","a; b,c"',
      `6,'=SUM(A1),"a; b,c"`,
      "7,'+1,",
    ];
    const bodies: string[] = [];
    for (const path of paths()) {
      const res = await fetch(`${base}/${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="rows_export.csv"');
      bodies.push(await res.text());
      expect(bodies.at(-1)?.startsWith(`${expected.join('\r\n')}\r\n`), path).toBe(true);
    }
    expect(bodies[1]).toBe(bodies[0]);
  });

  it('reads back through a strict RFC 4180 parser: one record per row, every value as stored or neutralised', async () => {
    for (const path of paths()) {
      const records = strict(await (await fetch(`${base}/${path}`)).text());
      expect(records[0]).toEqual(['number', 'label', 'tags']);
      expect(records.slice(2).map((record) => record[1])).toEqual(hostile.map(neutralised));
      expect(records.slice(2).map((record) => record[0])).toEqual(hostile.map((_, i) => String(i + 1)));
    }
  });

  it('writes, for arbitrary text, the bytes an RFC 4180 writer following the rules writes', async () => {
    const values = fc.sample(
      fc.string({
        unit: fc.constantFrom('a', 'é', '😀', '"', ',', '\r', '\n', ' ', '\t', '=', '+', '-', '@', '\u00a0'),
      }),
      { numRuns: 400, seed: 17 },
    );
    await database.db.execute(sql`create table csv_random (n int primary key, label text, tags text)`);
    const rows = values.map((label, i) => sql`(${i}, ${label}, null)`);
    await database.db.execute(sql`insert into csv_random values ${sql.join(rows, sql`, `)}`);
    const exported = await textOf(
      csvChunks({
        db: database.db,
        from: sql`from csv_random order by n`,
        columns,
        limit: 1000,
      }),
    );
    const expected = ['number,label,tags', ...values.map((v, i) => `${i},${rfc4180Field(neutralised(v))},`)];
    expect(exported).toBe(`${expected.join('\r\n')}\r\n`);
  });

  itNeeds(
    ['soffice'],
    'opens in LibreOffice as text cells, one row per record, no formulas',
    async () => {
      const path = paths().at(-1);
      const sheet = await openInLibreOffice(await (await fetch(`${base}/${path}`)).text());
      expect(sheet.formulaCells).toEqual([]);
      expect(sheet.rows).toHaveLength(2 + hostile.length);
      // Column B of each data row: a string cell holding the (neutralised) value; column A: a number.
      const numbered = sheet.rows.slice(2);
      expect(numbered.map((row) => row[0]?.type)).toEqual(hostile.map(() => 'float'));
      expect(numbered.map((row) => row[1]?.type ?? 'empty')).toEqual(hostile.map((v) => (v ? 'string' : 'empty')));
    },
    120_000,
  );

  it('streams every row when under the cap', async () => {
    for (const path of paths()) {
      const text = await (await fetch(`${base}/${path}?count=100`)).text();
      const rows = lines(text);
      expect(rows).toHaveLength(101);
      expect(rows.at(-1)).toMatch(/^100,/);
      expect(text).not.toContain('WARNING');
    }
  });

  it('cuts at the limit and appends the truncation row', async () => {
    for (const path of paths()) {
      const rows = lines(await (await fetch(`${base}/${path}?count=30&limit=14`)).text());
      expect(rows).toHaveLength(1 + 14 + 1);
      expect(rows[14]).toMatch(/^14,/);
      expect(rows.at(-1)).toBe('# WARNING: truncated at 14 rows');
    }
  });

  it('does not warn when the row count equals the limit', async () => {
    for (const path of paths()) {
      const rows = lines(await (await fetch(`${base}/${path}?count=14&limit=14`)).text());
      expect(rows).toHaveLength(15);
      expect(rows.at(-1)).toMatch(/^14,/);
    }
  });

  it('stops and frees the database when the client goes away mid-export', async () => {
    const aborted = new AbortController();
    const res = await fetch(`${base}/auto?count=300000`, { signal: aborted.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    aborted.abort();
    await reader.read().catch(() => undefined);
    // The export's connection is free again.
    const next = await fetch(`${base}/auto?count=3`);
    expect(lines(await next.text())).toHaveLength(4);
  });

  it('hands rows on while COPY runs, and releases the connection before a slow reader has read them', async () => {
    const pool = poolOf(database.db);
    const count = 100_000; // ~33 MB: more than the sockets' buffers hold while the reader waits
    const runningCopies = async () =>
      (
        await pool.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and state <> 'idle' and query like 'COPY (%'`)
      ).rows[0]?.n ?? 0;
    const gate = await pool.connect();
    await gate.query('select pg_advisory_lock($1)', [GATE_LOCK]);
    let locked = true;
    try {
      // The first rows come while COPY still waits at row GATED_ROW (an export finished before it is sent
      // would wait for the lock forever: the guard turns that into a failure).
      const guard = new AbortController();
      const tooLong = setTimeout(() => guard.abort(new Error('no rows while COPY was running')), 30_000);
      const res = await fetch(`${base}/gated?count=${count}`, { signal: guard.signal });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const parts: Uint8Array[] = [];
      while (!Buffer.concat(parts).includes('\r\n1,')) parts.push((await reader.read()).value as Uint8Array);
      clearTimeout(tooLong);
      expect(Buffer.concat(parts).toString('utf8')).toMatch(/^number,label,tags,pad\r\n1,/);
      expect(await runningCopies()).toBe(1);
      await gate.query('select pg_advisory_unlock($1)', [GATE_LOCK]);
      locked = false;
      // The reader takes nothing more until COPY has ended and its connection is back in the pool.
      const checkedOut = () => pool.totalCount - pool.idleCount; // the gate's, and the export's while it runs
      for (let waited = 0; (await runningCopies()) > 0 || checkedOut() > 1; waited += 50) {
        expect(waited, 'COPY still running while the reader waits').toBeLessThan(30_000);
        await sleep(50);
      }
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        parts.push(part.value);
        if (parts.length % 50 === 0) await sleep(5); // a slow reader
      }
      const records = strict(Buffer.concat(parts).toString('utf8'));
      expect(records).toHaveLength(1 + count);
      expect(records.map((record) => record[0])).toEqual([
        'number',
        ...Array.from({ length: count }, (_, i) => String(i + 1)),
      ]);
      expect(records.every((record, i) => i === 0 || record[3] === 'x'.repeat(300))).toBe(true);
    } finally {
      if (locked) await gate.query('select pg_advisory_unlock($1)', [GATE_LOCK]);
      gate.release();
    }
  }, 120_000);

  it('streams through gzip: the first rows come before the export ends, and leaving stops it', async () => {
    const aborted = new AbortController();
    const res = await fetch(`${base}/compressed?count=300000`, {
      signal: aborted.signal,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    // The first rows, in as many chunks as the decompressor hands them over (the header may come alone).
    const decoder = new TextDecoder();
    let first = '';
    while (!first.includes('\r\n1,')) {
      const { value, done } = await reader.read();
      if (done) break;
      first += decoder.decode(value, { stream: true });
    }
    expect(first).toMatch(/^number,label,tags\r\n1,/);
    expect(first.length).toBeLessThan(1_000_000); // a beginning, not the whole 300,000-row export
    aborted.abort();
    await reader.read().catch(() => undefined);
    const next = await fetch(`${base}/compressed?count=3`, { headers: { 'accept-encoding': 'br' } });
    expect(next.headers.get('content-encoding')).toBe('br');
    expect(lines(await next.text())).toHaveLength(4);
  });

  it('clamps the row cap to 100000', () => {
    expect(csvRowCap(undefined)).toBe(CSV_MAX_ROWS);
    expect(csvRowCap(5_000_000)).toBe(CSV_MAX_ROWS);
    expect(csvRowCap(3)).toBe(3);
  });
});
