import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ExplorerQuery } from '../../shared/explorer.js';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { encodeCursor } from '../cursor.js';
import { f, server } from '../mcp/mcp.fixtures.js';
import { cursorBinding } from './compile.js';

let token: string;

beforeAll(async () => {
  token = (await f.client(['explorer:query'], { orgs: [f.orgA.id] })).token;
});

const query = (body: unknown, orgId = f.orgA.id, as = token) =>
  server.call(`/v1/organization/${orgId}/explorer/query`, { method: 'POST', token: as, json: body });

describeAuthMatrix('explorer', () => ({ server, fixtures: f }), {
  method: 'POST',
  path: '/v1/organization/{orgId}/explorer/query',
  json: { entity: 'documents' },
});

describe('POST /v1/organization/{orgId}/explorer/query', () => {
  it('lists rows of the organization with the default fields, newest first', async () => {
    const res = await query({ entity: 'documents' });
    expect(res.status).toBe(200);
    expect(res.body.columns.map((c: { name: string }) => c.name)).toEqual([
      'uid',
      'number',
      'format',
      'title',
      'status',
      'projectId',
      'createdAt',
    ]);
    expect(res.body.rows.map((r: { number: string }) => r.number)).toEqual(['SUB-001', 'RFI-002', 'RFI-001']);
    expect(res.body.rows[0].createdAt).toBe('2025-05-03T00:00:00.000Z');
    expect(res.body.hasMore).toBe(false);
  });

  it('filters with and/or/not, contains, ranges and isNull; groups with count/min/max', async () => {
    const filtered = await query({
      entity: 'documents',
      fields: ['number'],
      where: {
        and: [
          {
            or: [
              { field: 'title', op: 'contains', value: 'BEAM' },
              { field: 'format', op: 'eq', value: 'submittal' },
            ],
          },
          { not: { field: 'status', op: 'in', value: ['closed', 'cancelled'] } },
          { field: 'dueDate', op: 'between', value: ['2025-06-01', '2025-06-30'] },
          { field: 'createdAt', op: 'gte', value: '2025-05-01T00:00:00Z' },
          { field: 'reviewStatus', op: 'isNull', value: true },
        ],
      },
      orderBy: [{ field: 'number', direction: 'asc' }],
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.rows).toEqual([{ number: 'RFI-001' }, { number: 'SUB-001' }]);

    const grouped = await query({
      entity: 'emails',
      groupBy: ['deliveryStatus'],
      aggregates: [{ fn: 'count' }, { fn: 'max', field: 'sentAt' }],
      orderBy: [{ field: 'deliveryStatus', direction: 'asc' }],
    });
    expect(grouped.status).toBe(200);
    expect(grouped.body.rows).toEqual(
      ['bounced', 'delivered', 'failed', 'opened', 'pending'].map((deliveryStatus) => ({
        deliveryStatus,
        count: 1,
        max_sentAt: deliveryStatus === 'failed' ? null : '2025-05-10T09:00:00.000Z',
      })),
    );
    const dispatches = await query({
      entity: 'dispatches',
      groupBy: ['actionType'],
      aggregates: [{ fn: 'max', field: 'recipientCount' }],
    });
    expect(dispatches.body.rows).toEqual([{ actionType: 'IssueDocument', max_recipientCount: 4 }]);
  });

  it('pages ungrouped rows with a keyset cursor bound to the query', async () => {
    const first = await query({ entity: 'documents', fields: ['number'], limit: 2 });
    expect(first.body.rows).toEqual([{ number: 'SUB-001' }, { number: 'RFI-002' }]);
    expect(first.body.hasMore).toBe(true);
    const second = await query({ entity: 'documents', fields: ['number'], limit: 2, cursor: first.body.nextCursor });
    expect(second.body.rows).toEqual([{ number: 'RFI-001' }]);
    expect(second.body.nextCursor).toBeNull();
    const other = await query({ entity: 'documents', fields: ['title'], limit: 2, cursor: first.body.nextCursor });
    expect(other.status).toBe(400);
  });

  it('refuses forged cursors whose key does not fit the sort field, before any SQL runs', async () => {
    const body = { entity: 'documents', fields: ['number'], limit: 2 };
    const binding = cursorBinding(ExplorerQuery.parse(body));
    const execute = vi.spyOn(server.database.db, 'transaction');
    for (const k of [['2025-02-30T00:00:00.000Z'], ['soon'], [12], [null], ['2025-05-01T00:00:00.000Z', 'x']]) {
      const res = await query({
        ...body,
        cursor: encodeCursor(server.app.context.cursorKey, { k, id: 'doc_a1_rfi1' }, binding),
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid cursor');
    }
    expect(execute).not.toHaveBeenCalled();
    execute.mockRestore();
  });

  it('limits a project-scoped key to its projects', async () => {
    const key = await f.client(['explorer:query'], { projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }] });
    const res = await query({ entity: 'documents' }, f.orgA.id, key.token);
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([]);
  });
});

describe('explorer scope escapes and bad queries are refused before any SQL runs', () => {
  const refusals: [string, unknown, RegExp][] = [
    [
      'another organization id in a filter',
      { entity: 'documents', where: { field: 'organizationId', op: 'eq', value: 'ORG_B' } },
      /organization .* is outside your access/,
    ],
    [
      'another organization inside or/not',
      {
        entity: 'emails',
        where: {
          or: [
            { field: 'uid', op: 'eq', value: 'x' },
            { not: { field: 'organizationId', op: 'in', value: ['ORG_A', 'ORG_B'] } },
          ],
        },
      },
      /outside your access/,
    ],
    [
      'a project of another organization',
      { entity: 'documents', where: { field: 'projectId', op: 'eq', value: 'PROJECT_B1' } },
      /project .* is outside your access/,
    ],
    [
      'an unknown project',
      { entity: 'documents', where: { field: 'projectId', op: 'eq', value: 'prj_nope' } },
      /outside your access/,
    ],
    [
      'a range on the organization id',
      { entity: 'documents', where: { field: 'organizationId', op: 'gte', value: '' } },
      /supports only eq, in and isNull/,
    ],
    [
      'an unknown field',
      { entity: 'documents', where: { field: 'passwordHash', op: 'eq', value: 'x' } },
      /unknown field "passwordHash"/,
    ],
    ['SQL in a field name', { entity: 'documents', fields: ['title; drop table users'] }, /letters and digits/],
    ['an unknown entity', { entity: 'users' }, /entity/],
    [
      'contains on a timestamp',
      { entity: 'documents', where: { field: 'createdAt', op: 'contains', value: '2025' } },
      /contains works on text fields/,
    ],
    [
      'a range on text',
      { entity: 'documents', where: { field: 'title', op: 'gte', value: 'a' } },
      /gte works on numbers, dates and timestamps/,
    ],
    [
      'a number for a text field',
      { entity: 'documents', where: { field: 'status', op: 'eq', value: 5 } },
      /status expects a string/,
    ],
    [
      'a bad date',
      { entity: 'documents', where: { field: 'dueDate', op: 'eq', value: '2025-13-45' } },
      /dueDate expects a date/,
    ],
    [
      'a date that does not exist',
      { entity: 'documents', where: { field: 'dueDate', op: 'eq', value: '2025-02-30' } },
      /dueDate expects a date/,
    ],
    [
      'a timestamp on a day that does not exist',
      { entity: 'documents', where: { field: 'createdAt', op: 'between', value: ['2025-02-01', '2025-02-29T10:00Z'] } },
      /createdAt expects an ISO 8601 date/,
    ],
    [
      'between with one bound',
      { entity: 'documents', where: { field: 'dueDate', op: 'between', value: ['2025-01-01'] } },
      /needs \[from, to\]/,
    ],
    [
      'isNull on a field that is never empty',
      { entity: 'documents', where: { field: 'title', op: 'isNull', value: true } },
      /never empty/,
    ],
    ['a huge limit', { entity: 'documents', limit: 100000 }, /limit must be an integer from 1 to 500/],
    ['a zero limit', { entity: 'documents', limit: 0 }, /limit must be an integer from 1 to 500/],
    [
      'deep nesting',
      {
        entity: 'documents',
        where: { not: { not: { not: { not: { not: { field: 'title', op: 'eq', value: 'x' } } } } } },
      },
      /nested too deeply/,
    ],
    // Sent as raw JSON text: far deeper than JSON.stringify or a recursive validator could take.
    [
      'very deep nesting',
      `{"entity":"documents","where":${'{"not":'.repeat(50_000)}{"field":"title","op":"eq","value":"x"}${'}'.repeat(50_000)}}`,
      /nested too deeply/,
    ],
    [
      'too many comparisons',
      {
        entity: 'documents',
        where: {
          or: Array.from({ length: 3 }, () => ({
            and: Array.from({ length: 20 }, () => ({ field: 'title', op: 'eq', value: 'x' })),
          })),
        },
      },
      /too many comparisons/,
    ],
    ['sorting on a nullable field', { entity: 'documents', orderBy: [{ field: 'dueDate' }] }, /cannot be sorted on/],
    [
      'fields with groupBy',
      { entity: 'documents', fields: ['title'], groupBy: ['status'] },
      /fields cannot be combined with groupBy/,
    ],
    [
      'min without a field',
      { entity: 'documents', groupBy: ['status'], aggregates: [{ fn: 'min' }] },
      /min needs a field/,
    ],
    [
      'ordering by a column not in the result',
      { entity: 'documents', groupBy: ['status'], orderBy: [{ field: 'title' }] },
      /not a groupBy field or aggregate/,
    ],
    ['extra keys', { entity: 'documents', sql: 'select 1' }, /sql/],
  ];

  for (const [name, body, message] of refusals) {
    it(`refuses ${name}`, async () => {
      const text = (typeof body === 'string' ? body : JSON.stringify(body))
        .replaceAll('ORG_B', f.orgB.id)
        .replaceAll('ORG_A', f.orgA.id)
        .replaceAll('PROJECT_B1', f.projectB1.id);
      const execute = vi.spyOn(server.database.db, 'transaction');
      const res = await server.call(`/v1/organization/${f.orgA.id}/explorer/query`, {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      expect(res.status).toBe(400);
      expect(`${res.body.error} ${JSON.stringify(res.body.details ?? [])}`).toMatch(message);
      expect(execute).not.toHaveBeenCalled();
      execute.mockRestore();
    });
  }
});
