import { beforeAll, describe, expect, it } from 'vitest';
import { f, server } from './fixture-server.js';

// Issue 28: dates at the edges and forged cursors are a 400 naming the parameter, never a 500; MCP arguments
// holding NUL are a tool error naming the argument. (test/fuzz.test.ts sends thousands of such requests.)
let key: string;

beforeAll(async () => {
  key = (await f.client('all', { superadmin: true })).token;
}, 60_000);

const project = () => `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}`;

const tool = async (name: string, args: object) => {
  const res = await server.call('/mcp', {
    method: 'POST',
    token: key,
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });
  expect(res.status).toBe(200);
  return res.body.result as { isError?: boolean; content: { text: string }[] };
};

describe('dates at the edges', () => {
  it.each([
    ['activity', 'to', () => `/v1/organization/${f.orgA.id}/activity?to=9999-12-31`],
    ['activity', 'from', () => `/v1/organization/${f.orgA.id}/activity?from=0001-01-01T00:00:00%2B01:00`],
    ['comms', 'to', () => `${project()}/comms?to=9999-12-31`],
    ['comms', 'from', () => `${project()}/comms?from=0000-01-01`],
    ['documents', 'filter.createdAt', () => `${project()}/documents?filter.createdAt=,9999-12-31`],
    ['documents', 'filter.dueDate', () => `${project()}/documents?filter.dueDate=0000-01-01,`],
    ['admin submittals', 'filter.createdAt', () => '/v1/admin/documents/submittals?filter.createdAt=,9999-12-31'],
    ['filed e-mails', 'sentAt', () => `${project()}/emails?sentAt=,9999-12-31`],
  ])('%s: a bound out of range is a 400 naming %s', async (_list, parameter, url) => {
    const token = url().includes('/emails') ? f.member.token : url().includes('/admin/') ? f.staff.token : key;
    const res = await server.call(url(), { token });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('validation_failed');
    expect(res.body.details?.[0]?.path ?? res.body.error).toContain(parameter);
  });

  it('the last day an upper bound may name is 9999-12-30', async () => {
    const res = await server.call(`/v1/organization/${f.orgA.id}/activity?from=0001-01-01&to=9999-12-30`, {
      token: key,
    });
    expect(res.status).toBe(200);
  });

  it('MCP emails_search: an edge date is a tool error naming the argument', async () => {
    const result = await tool('emails_search', { organizationId: f.orgA.id, to: '9999-12-31' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/\bto\b/);
  });
});

describe('forged cursors and NUL arguments', () => {
  const forge = (payload: object, signature?: string) =>
    Buffer.from(JSON.stringify(payload)).toString('base64url') + (signature ? `.${signature}` : '');

  it('a cursor with a NUL or year 0, signed or not, is a 400 on the lists', async () => {
    const first = await server.call('/v1/organization?limit=1', { token: key });
    const signature = String(first.body.nextCursor).split('.')[1];
    for (const cursor of [
      forge({ k: ['a\u0000b'], id: 'x\u0000', f: 'x' }),
      forge({ k: ['0000-01-01T00:00:00.000Z'], id: 'x', f: 'x' }, signature),
      forge(
        { ...JSON.parse(Buffer.from(first.body.nextCursor.split('.')[0], 'base64url').toString()), id: 'z' },
        signature,
      ),
    ]) {
      for (const url of ['/v1/organization', `/v1/organization/${f.orgA.id}/activity`, `${project()}/documents`]) {
        const res = await server.call(`${url}?cursor=${encodeURIComponent(cursor)}`, { token: key });
        expect(res.status, url).toBe(400);
        expect(res.body.error).toBe('Invalid cursor');
      }
    }
    // The spec's unsigned comms cursor: its values are checked instead.
    for (const cursor of [
      forge({ d: '0000-01-01T00:00:00.000Z', id: 'x' }),
      forge({ d: '2025-01-01T00:00:00.000Z', id: 'a\u0000' }),
    ]) {
      const res = await server.call(`${project()}/comms?cursor=${cursor}`, { token: key });
      expect(res.status).toBe(400);
    }
  });

  it('an MCP argument holding NUL is a tool error naming it, not a server error', async () => {
    const result = await tool('emails_search', { organizationId: f.orgA.id, text: 'pile\u0000cap' });
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: 'text must not contain NUL characters (U+0000)' }],
    });
  });
});
