import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, startTestServer, type TestServer } from './harness.js';

/**
 * Property-based fuzzing driven by /v1/openapi.json: every operation, with hostile path parameters,
 * query values (declared and unknown, repeated), headers and JSON bodies. Whatever comes in, the server
 * answers below 500, every error carries {error, errorCode, requestId}, and it stays healthy.
 */
let server: TestServer;
let tokens: string[];
let operations: { method: string; path: string; query: string[]; hasBody: boolean }[];

const REQUESTS = 5_000;

beforeAll(async () => {
  server = await startTestServer();
  const f = await createFixtures(server);
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
}, 120_000);
afterAll(async () => {
  await server.close();
});

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
});
