import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixtures, TestServer } from '../../test/harness.js';
import { activity } from '../db/schema.js';
import { call, connectWithToken, errorText, fileRfiAnswer, startMcpTestServer, structured } from './mcp.fixtures.js';

// The tools over the REST routes of filed e-mails, reports, the directory, the activity feed and one document, called
// with the MCP SDK client: how they are listed, what they find, and refusals the REST/MCP comparison
// (test/rest-mcp.test.ts) does not ask for.

let server: TestServer;
let f: Fixtures;
let agent: Client;
let token: string;
let filedEmailId: string;

const newTools = [
  'filed_emails_search',
  'filed_email_read',
  'reports_list',
  'report_read',
  'directory_search',
  'activity_feed',
  'document_read',
];

beforeAll(async () => {
  ({ server, f } = await startMcpTestServer());
  const key = await f.client(['mcp:access', 'email:read', 'document:read', 'organization:read'], {
    orgs: [f.orgA.id],
  });
  token = key.token;
  agent = await connectWithToken(server, token);
  filedEmailId = await fileRfiAnswer(server, f, '<rfi-1-answer@acme-eng.test>');
  const db = server.database.db;
  await db.insert(activity).values(
    ['status_changed', 'comment_added'].map((action, i) => ({
      id: `act_${i}`,
      organizationId: f.orgA.id,
      projectId: f.projectA1.id,
      documentId: 'doc_a1_rfi1',
      actorName: 'Ada Admin',
      actorEmail: 'admin@harbor.test',
      action,
      title: `RFI-001 ${action}`,
      createdAt: new Date(Date.UTC(2025, 4, 3, i)),
    })),
  );
});
afterAll(async () => {
  await agent?.close();
  await server?.close();
});

const rest = (path: string) => server.call(path, { token });

describe('MCP tools over the REST routes', () => {
  it('are listed with output schemas, and only tools.listChanged: false is advertised', async () => {
    const { tools } = await agent.listTools();
    for (const name of newTools) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.outputSchema?.type, name).toBe('object');
      expect(tool?.annotations?.readOnlyHint, name).toBe(true);
    }
    expect(agent.getServerCapabilities()?.tools?.listChanged ?? false).toBe(false);
    // What MCP Inspector warns about: type arrays; and an output schema must be an object schema at the top.
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(JSON.stringify(schema), tool.name).not.toMatch(/"type":\[/);
      }
    }
  });

  // test/rest-mcp.test.ts shows each tool answers as its REST twin for every principal of the auth matrix; these
  // show what the answers hold and that a cursor pages on.
  it('find, read and page what the REST routes hold', async () => {
    // A key of project A2 only: the organization's feed narrowed to its project (nothing happened there).
    const scoped = await f.client(['mcp:access', 'email:read', 'document:read', 'organization:read'], {
      projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }],
    });
    const scopedAgent = await connectWithToken(server, scoped.token);
    try {
      const feed = structured(await call(scopedAgent, 'activity_feed', { organizationId: f.orgA.id }));
      expect(feed.data).toEqual([]);
    } finally {
      await scopedAgent.close();
    }
    const feed = structured(await call(agent, 'activity_feed', { organizationId: f.orgA.id, limit: 1 }));
    expect(feed.data).toHaveLength(1);
    expect(feed.hasMore).toBe(true);
    const next = structured(await call(agent, 'activity_feed', { organizationId: f.orgA.id, cursor: feed.nextCursor }));
    expect(next.data[0].uid).not.toBe(feed.data[0].uid);
    const found = structured(
      await call(agent, 'filed_emails_search', {
        organizationId: f.orgA.id,
        projectId: f.projectA1.id,
        search: 'pocket',
      }),
    );
    expect(found.data.map((e: { id: string }) => e.id)).toEqual([filedEmailId]);
    const document = structured(
      await call(agent, 'document_read', {
        organizationId: f.orgA.id,
        projectId: f.projectA1.id,
        documentUid: 'doc_a1_rfi1',
      }),
    );
    expect(document).toMatchObject({ uid: 'doc_a1_rfi1', id: 'RFI-001', title: 'Beam pocket depth' });
  });

  it('refuse a project of another organization, an unknown record and a bad argument, as REST does', async () => {
    // Another organization's project named under the caller's organization: unknown there, in REST and MCP alike.
    const elsewhere = await rest(`/v1/organization/${f.orgA.id}/project/${f.projectB1.id}/documents/doc_b1_rfi1`);
    expect(elsewhere.status).toBe(404);
    expect(
      errorText(
        await call(agent, 'document_read', {
          organizationId: f.orgA.id,
          projectId: f.projectB1.id,
          documentUid: 'doc_b1_rfi1',
        }),
      ),
    ).toBe(elsewhere.body.error);
    expect(
      errorText(
        await call(agent, 'document_read', {
          organizationId: f.orgA.id,
          projectId: f.projectA1.id,
          documentUid: 'doc_b1_rfi1',
        }),
      ),
    ).toBe('Document not found');
    expect(
      errorText(await call(agent, 'filed_emails_search', { organizationId: f.orgA.id, projectId: 'prj_nope' })),
    ).toBe('Project not found');
    expect(errorText(await call(agent, 'activity_feed', { organizationId: f.orgA.id, from: 'last tuesday' }))).toMatch(
      /from/,
    );
  });
});

describe('Accept on POST /mcp', () => {
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const post = (accept?: string) =>
    server.call('/mcp', {
      method: 'POST',
      token,
      body: list,
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-06-18',
        ...(accept === undefined ? {} : { accept }),
      },
    });

  it('serves JSON to a client that accepts JSON or says nothing; refuses one that takes neither', async () => {
    for (const accept of [undefined, 'application/json', '*/*', 'application/json, text/event-stream']) {
      const res = await post(accept);
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body.result.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(newTools));
    }
    expect((await post('text/html')).status).toBe(406);
  });
});
