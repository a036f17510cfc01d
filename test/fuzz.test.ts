import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { f, server } from './fixture-server.js';

/**
 * Property-based fuzzing driven by /v1/openapi.json: every operation, with hostile path parameters,
 * query values (declared and unknown, repeated), headers and JSON bodies. Whatever comes in, the server
 * answers below 500, every error carries {error, errorCode, requestId}, and it stays healthy.
 */
let tokens: string[];
let operations: { method: string; path: string; query: string[]; hasBody: boolean }[];
let realCursors: string[];

const REQUESTS = 5_000;
/** Requests of the date and cursor property (issue 28); with REQUESTS, over 20,000 in all. */
const EDGE_REQUESTS = 15_500;

beforeAll(async () => {
  const superKey = await f.client('all', { superadmin: true });
  tokens = [superKey.token, f.staff.token, f.member.token, 'not-a-token'];
  const doc = (await server.call('/v1/openapi.json')).body;
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    // biome-ignore lint/suspicious/noExplicitAny: see above
    Object.entries(item as Record<string, any>).map(([method, op]) => ({
      method: method.toUpperCase(),
      path: path.replace('{orgId}', f.orgA.id).replace('{projectId}', f.projectA1.id),
      query: (op.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name),
      hasBody: Boolean(op.requestBody),
    })),
  );
  // Genuine cursors, to be edited: the lists of organizations and of keys (two of each), one row a page.
  await f.client(['organization:read'], { orgs: [f.orgA.id] });
  const pages = await Promise.all([
    server.call('/v1/organization?limit=1', { token: superKey.token }),
    server.call('/v1/admin/clients?limit=1', { token: f.staff.token }),
  ]);
  realCursors = pages.map((page) => page.body.nextCursor);
  expect(realCursors.every((cursor) => typeof cursor === 'string')).toBe(true);
}, 120_000);

/** Strings an attacker or a broken client sends: NUL, lone surrogates, CR/LF, huge, numeric edge cases. */
const hostileString = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\r\n',
    'a\rb',
    '-1',
    '0',
    '1e309',
    'NaN',
    'true',
    '',
    ' ',
    '%',
    '..',
    '../../etc/passwd',
    "' or 1=1 --",
    '{"k":1}',
    'x'.repeat(5_000),
    ','.repeat(600),
    '2025-02-30,2025-01-01',
  ),
  fc.string({ maxLength: 40, unit: 'binary' }),
);

const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), hostileString), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const request = () =>
  fc.record({
    operation: fc.nat(),
    pathValue: hostileString,
    query: fc.array(fc.tuple(fc.oneof(fc.nat(), hostileString), hostileString), { maxLength: 4 }),
    token: fc.nat(),
    body: fc.option(jsonValue, { nil: undefined }),
    idempotencyKey: fc.option(hostileString, { nil: undefined }),
  });

/** Percent-encodes every code unit, lone surrogates included (encodeURIComponent throws on those). */
const encode = (value: string) =>
  [...value]
    .map((char) => {
      try {
        return encodeURIComponent(char);
      } catch {
        return '%EF%BF%BD';
      }
    })
    .join('');

/** Dates at and past the edges: year 0000 and 9999, five- and six-digit years, impossible months, days, hours
 *  and offsets, date-only and date-time, alone and as `from,to` ranges. */
const edgeDate = fc
  .tuple(
    fc.constantFrom('0000', '0001', '1969', '2025', '9999', '10000', '+275760', '-000001'),
    fc.constantFrom('00', '01', '02', '12', '13'),
    fc.constantFrom('00', '01', '28', '29', '30', '31', '32'),
    fc.option(
      fc.tuple(
        fc.constantFrom('00:00', '23:59:59.999', '24:00', '12:00:60'),
        fc.constantFrom('Z', '+00:00', '+01:00', '-01:00', '+14:00', '-15:59', '+16:00', ''),
      ),
      { nil: undefined },
    ),
  )
  .map(([year, month, day, time]) => `${year}-${month}-${day}${time ? `T${time[0]}${time[1]}` : ''}`);
const edgeValue = fc.oneof(
  edgeDate,
  fc.constantFrom('9999-12-31', '9999-12-30', '0000-01-01', '0001-01-01', '9999-12-31T23:59:59.999Z'),
  fc.tuple(fc.option(edgeDate, { nil: '' }), fc.option(edgeDate, { nil: '' })).map(([a, b]) => `${a},${b}`),
  fc.constantFrom(',9999-12-31', '0000-01-01,', '9999-12-31,9999-12-31', '0001-01-01,9999-12-30'),
);

/** Cursors a client could forge: well-formed JSON (ours or the comms list's shape) holding NULs, year 0 or
 *  impossible dates, with or without a made-up signature, and genuine cursors with one character changed. */
const forgedCursor = fc.oneof(
  fc
    .tuple(
      fc.oneof(
        fc.record({
          k: fc.array(fc.oneof(edgeDate, hostileString, fc.integer(), fc.constant(null)), { maxLength: 2 }),
          id: hostileString,
          f: fc.string({ maxLength: 12 }),
        }),
        fc.record({ d: fc.oneof(edgeDate, fc.constant('0000-01-01T00:00:00.000Z')), id: hostileString }),
        fc.record({ n: fc.oneof(fc.integer(), fc.double()), id: hostileString }),
      ),
      fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: undefined }),
    )
    .map(([payload, mac]) => {
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return mac === undefined ? body : `${body}.${mac}`;
    }),
  fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('A', 'z', '0', '_', '.', '-')).map(([which, at, char]) => {
    const cursor = realCursors[which % realCursors.length] ?? 'x';
    const i = at % cursor.length;
    return cursor.slice(0, i) + char + cursor.slice(i + 1);
  }),
);

/** Where a date or a cursor goes: parameters named like one, else any of the operation's parameters. */
const edgeParameterOf = (names: string[], pick: number, kind: 'date' | 'cursor') => {
  const fitting = names.filter((name) =>
    kind === 'cursor' ? name === 'cursor' : /^(from|to)$|At$|Date$|date/.test(name),
  );
  const from = fitting.length > 0 ? fitting : names;
  return from[pick % Math.max(from.length, 1)] ?? kind;
};

/** Sends `inputs` `width` at a time; resolves once every one has had its answer checked. */
async function sendAll<T>(inputs: T[], width: number, send: (input: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < inputs.length) await send(inputs[next++]!);
    }),
  );
}

describe('fuzzing every operation of /v1/openapi.json', () => {
  it(`answers ${REQUESTS} hostile requests without a 5xx, with the error body, and stays healthy`, async () => {
    let sent = 0;
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(request(), async (r) => {
        const op = operations[r.operation % operations.length]!;
        seen.add(`${op.method} ${op.path}`);
        const path = op.path.replace(/\{\w+\}/g, () => encode(r.pathValue) || 'x');
        const query = r.query
          .map(([name, value]) => {
            const key = typeof name === 'number' ? (op.query[name % Math.max(op.query.length, 1)] ?? 'x') : name;
            return `${encode(key)}=${encode(value)}`;
          })
          .join('&');
        const headers: Record<string, string> = {};
        const idempotencyKey = r.idempotencyKey?.replace(/[^\x20-\x7e]/g, '');
        if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey.slice(0, 4000);
        const res = await server.call(`${path}${query ? `?${query}` : ''}`, {
          method: op.method,
          token: tokens[r.token % tokens.length],
          headers,
          ...(op.hasBody && r.body !== undefined ? { json: r.body } : {}),
        });
        sent++;
        expect(res.status, `${op.method} ${path}?${query}`).toBeLessThan(500);
        if (res.status >= 400 && typeof res.body === 'object' && 'errorCode' in res.body) {
          expect(res.body).toMatchObject({
            error: expect.any(String),
            errorCode: expect.any(String),
            requestId: expect.any(String),
          });
        } else if (res.status >= 400 && op.path.startsWith('/scim/')) {
          // RFC 7644 §3.12 on /scim/v2.
          expect(res.body, `${op.method} ${path}`).toMatchObject({
            status: String(res.status),
            detail: expect.any(String),
          });
        } else if (res.status >= 400) {
          // OAuth's own shape on the token endpoint (RFC 6749 §5.2).
          expect(res.body, `${op.method} ${path}`).toMatchObject({ error: expect.any(String) });
        }
      }),
      { numRuns: REQUESTS, seed: 17 },
    );
    expect(sent).toBe(REQUESTS);
    expect(seen.size).toBe(operations.length);
    expect((await server.call('/healthz')).status).toBe(200);
    expect((await server.call('/readyz')).status).toBe(200);
  }, 600_000);

  it(`answers ${EDGE_REQUESTS} requests with edge dates and forged cursors (every list, MCP emails_search) with 4xx, never 5xx`, async () => {
    const lists = operations.filter((op) => op.method === 'GET' && op.query.some((name) => name !== 'limit'));
    const inputs = fc.sample(
      fc.record({
        operation: fc.nat(),
        pick: fc.nat(),
        kind: fc.constantFrom('date' as const, 'cursor' as const),
        date: edgeValue,
        cursor: forgedCursor,
        second: fc.option(fc.tuple(fc.nat(), edgeValue), { nil: undefined }),
        token: fc.nat(2),
        mcp: fc.nat(9),
      }),
      { numRuns: EDGE_REQUESTS, seed: 28 },
    );
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    await sendAll(inputs, 8, async (r) => {
      if (r.mcp === 0) {
        // One in ten through MCP's emails_search: a tool error that names the problem, never a server error.
        const edge = r.kind === 'date' ? { [r.pick % 2 ? 'from' : 'to']: r.date } : { cursor: r.cursor };
        const args = { organizationId: f.orgA.id, ...edge };
        const res = await server.call('/mcp', {
          method: 'POST',
          token: tokens[0],
          headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
          json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'emails_search', arguments: args } },
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const text: string = res.body?.result?.content?.[0]?.text ?? res.body?.error?.message ?? '';
        if (res.status >= 500 || /server error/i.test(text)) failures.push(`MCP ${JSON.stringify(args)} → ${text}`);
        return;
      }
      const op = lists[r.operation % lists.length]!;
      const path = op.path.replace(/\{\w+\}/g, 'x');
      const value = r.kind === 'date' ? r.date : r.cursor;
      const params = new URLSearchParams({ [edgeParameterOf(op.query, r.pick, r.kind)]: value });
      if (r.second) params.set(edgeParameterOf(op.query, r.second[0], 'date'), r.second[1]);
      const res = await server.call(`${path}?${params}`, { token: tokens[r.token] });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500)
        failures.push(`${op.method} ${path}?${params} → ${res.status} ${JSON.stringify(res.body)}`);
    });
    expect(failures.slice(0, 5)).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(EDGE_REQUESTS);
    // The edges were refused as bad input, and some requests got through to a page.
    expect(statuses.get(400)).toBeGreaterThan(EDGE_REQUESTS / 4);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect((await server.call('/readyz')).status).toBe(200);
  }, 600_000);
});
