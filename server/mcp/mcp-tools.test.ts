import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentOAuth } from '../oauth/agent.fixtures.js';
import { call, errorText, f, server, signInAgent, structured } from './mcp.fixtures.js';

// The MCP tools as an agent signed in as Mia Member (organization A) sees them, over the data of mcp.fixtures.ts.

let agent: Client;

beforeAll(async () => {
  agent = await signInAgent(server, new AgentOAuth('Test Agent', 'agent-state-1'));
});
afterAll(async () => {
  await agent?.close();
});

describe('MCP tools as a signed-in member of organization A', () => {
  it("projects_find lists only the member's projects, by name, with paging", async () => {
    const all = structured(await call(agent, 'projects_find', { organizationId: f.orgA.id }));
    expect(all.data.map((p: { name: string }) => p.name)).toEqual(['Dockside Offices', 'Pier 9 Terminal']);
    const page1 = structured(await call(agent, 'projects_find', { organizationId: f.orgA.id, limit: 1 }));
    expect(page1.hasMore).toBe(true);
    const page2 = structured(
      await call(agent, 'projects_find', { organizationId: f.orgA.id, limit: 1, cursor: page1.nextCursor }),
    );
    expect(page2.data[0].name).toBe('Pier 9 Terminal');
    expect(page2.hasMore).toBe(false);
    expect(
      structured(await call(agent, 'projects_find', { organizationId: f.orgA.id, query: 'pier' })).data,
    ).toHaveLength(1);
    expect(errorText(await call(agent, 'projects_find', { organizationId: f.orgA.id, limit: 500 }))).toMatch(/limit/);
    expect(errorText(await call(agent, 'projects_find', { organizationId: f.orgB.id }))).toBe(
      'Insufficient permissions',
    );
  });

  it("explorer_query groups and lists within the caller's organizations only", async () => {
    const grouped = structured(
      await call(agent, 'explorer_query', {
        organizationId: f.orgA.id,
        entity: 'documents',
        groupBy: ['format'],
        orderBy: [{ field: 'format' }],
      }),
    );
    expect(grouped.rows).toEqual([
      { format: 'rfi', count: 2 },
      { format: 'submittal', count: 1 },
    ]);
    /** One RFI a page, by number. */
    const rfiPage = async (cursor?: string) =>
      structured(
        await call(agent, 'explorer_query', {
          organizationId: f.orgA.id,
          entity: 'documents',
          fields: ['number', 'status', 'dueDate'],
          where: { field: 'format', op: 'eq', value: 'rfi' },
          orderBy: [{ field: 'number', direction: 'asc' }],
          limit: 1,
          cursor,
        }),
      );
    const listed = await rfiPage();
    expect(listed.rows).toEqual([{ number: 'RFI-001', status: 'pending', dueDate: '2025-06-01' }]);
    expect(listed.hasMore).toBe(true);
    const next = await rfiPage(listed.nextCursor);
    expect(next.rows).toEqual([{ number: 'RFI-002', status: 'closed', dueDate: '2025-06-02' }]);
    expect(next.hasMore).toBe(false);
  });

  it('explorer_query refuses bad arguments and other organizations with clear tool errors', async () => {
    expect(errorText(await call(agent, 'explorer_query', { organizationId: f.orgA.id, entity: 'invoices' }))).toMatch(
      /entity/,
    );
    expect(
      errorText(await call(agent, 'explorer_query', { organizationId: f.orgA.id, entity: 'documents', limit: 100000 })),
    ).toMatch(/limit must be an integer from 1 to 500/);
    expect(
      errorText(
        await call(agent, 'explorer_query', {
          organizationId: f.orgB.id,
          entity: 'documents',
        }),
      ),
    ).toBe('Insufficient permissions');
    expect(
      errorText(
        await call(agent, 'explorer_query', {
          organizationId: f.orgA.id,
          entity: 'documents',
          where: { field: 'organizationId', op: 'eq', value: f.orgB.id },
        }),
      ),
    ).toMatch(/organization .* is outside your access/);
    expect(
      errorText(
        await call(agent, 'explorer_query', {
          organizationId: f.orgA.id,
          entity: 'documents',
          where: { field: 'projectId', op: 'in', value: [f.projectA1.id, f.projectB1.id] },
        }),
      ),
    ).toMatch(/project .* is outside your access/);
  });

  it('emails_search finds by text, status and recipient, newest first, never other organizations', async () => {
    const all = structured(await call(agent, 'emails_search', { organizationId: f.orgA.id }));
    expect(all.data).toHaveLength(5);
    // Unsent records come after every sent one.
    expect(all.data.at(-1)).toMatchObject({
      deliveryStatus: 'failed',
      sentAt: null,
      notSentReason: 'Recipient unsubscribed',
    });
    expect(all.data.every((e: { projectId: string }) => e.projectId === f.projectA1.id)).toBe(true);
    const bounced = structured(await call(agent, 'emails_search', { organizationId: f.orgA.id, status: ['bounced'] }));
    expect(bounced.data.map((e: { recipientEmail: string }) => e.recipientEmail)).toEqual(['bounced@consult.test']);
    expect(bounced.data[0]).toMatchObject({
      mailerMessageId: 'msg-a1-001',
      deliveryStatus: 'bounced',
      bounceType: 'Permanent',
    });
    const opened = structured(
      await call(agent, 'emails_search', { organizationId: f.orgA.id, text: 'beam pocket', recipient: 'olive' }),
    );
    expect(opened.data.map((e: { deliveryStatus: string }) => e.deliveryStatus)).toEqual(['opened']);
    const paged = structured(await call(agent, 'emails_search', { organizationId: f.orgA.id, limit: 3 }));
    expect(paged.hasMore).toBe(true);
    const rest = structured(
      await call(agent, 'emails_search', { organizationId: f.orgA.id, limit: 3, cursor: paged.nextCursor }),
    );
    expect([...paged.data, ...rest.data].map((e: { recipientEmail: string }) => e.recipientEmail)).toEqual(
      all.data.map((e: { recipientEmail: string }) => e.recipientEmail),
    );
    const last = structured(await call(agent, 'emails_search', { organizationId: f.orgA.id, limit: 4 }));
    const afterLast = structured(
      await call(agent, 'emails_search', { organizationId: f.orgA.id, limit: 4, cursor: last.nextCursor }),
    );
    expect(afterLast.data.map((e: { deliveryStatus: string }) => e.deliveryStatus)).toEqual(['failed']);
    expect(afterLast.hasMore).toBe(false);
    expect(
      structured(await call(agent, 'emails_search', { organizationId: f.orgA.id, text: 'hospital' })).data,
    ).toEqual([]);
    expect(
      structured(await call(agent, 'emails_search', { organizationId: f.orgA.id, from: '2025-05-11' })).data,
    ).toEqual([]);
    expect(
      structured(await call(agent, 'emails_search', { organizationId: f.orgA.id, to: '2025-05-10' })).data,
    ).toHaveLength(4);
  });

  it('emails_search refuses bad arguments and out-of-scope projects and documents', async () => {
    expect(errorText(await call(agent, 'emails_search', { organizationId: f.orgA.id, status: ['lost'] }))).toMatch(
      /status/,
    );
    expect(errorText(await call(agent, 'emails_search', { organizationId: f.orgA.id, from: 'yesterday' }))).toMatch(
      /from/,
    );
    // Another organization's project reads like an unknown one.
    expect(
      errorText(await call(agent, 'emails_search', { organizationId: f.orgA.id, projectId: f.projectB1.id })),
    ).toBe('Project not found');
    expect(
      errorText(await call(agent, 'emails_search', { organizationId: f.orgA.id, documentId: 'doc_b1_rfi1' })),
    ).toBe('Document not found');
    expect(errorText(await call(agent, 'emails_search', { organizationId: f.orgA.id, cursor: 'garbage' }))).toMatch(
      /Invalid cursor/,
    );
  });

  it('emails_timeline tells sent → delivered → opened / bounced per recipient in order', async () => {
    const timeline = structured(
      await call(agent, 'emails_timeline', { organizationId: f.orgA.id, mailerMessageId: 'msg-a1-001' }),
    );
    const events = timeline.events.map(
      (e: { event: string; recipientEmail: string }) => `${e.event}:${e.recipientEmail}`,
    );
    expect(events.slice(0, 4).every((e: string) => e.startsWith('sent:'))).toBe(true);
    expect(events.slice(4)).toEqual([
      'delivered:opened@consult.test',
      'delivered:delivered@consult.test',
      'bounced:bounced@consult.test',
      'opened:opened@consult.test',
    ]);
    const byDocument = structured(
      await call(agent, 'emails_timeline', { organizationId: f.orgA.id, documentId: 'doc_a1_rfi1' }),
    );
    expect(byDocument.events).toHaveLength(8);
    const byProject = structured(
      await call(agent, 'emails_timeline', { organizationId: f.orgA.id, projectId: f.projectA1.id, limit: 2 }),
    );
    expect(byProject.hasMore).toBe(true);
  });

  it('emails_timeline refuses ambiguous, unknown and out-of-scope subjects', async () => {
    expect(errorText(await call(agent, 'emails_timeline', { organizationId: f.orgA.id }))).toMatch(/exactly one/);
    expect(
      errorText(
        await call(agent, 'emails_timeline', {
          organizationId: f.orgA.id,
          documentId: 'doc_a1_rfi1',
          projectId: f.projectA1.id,
        }),
      ),
    ).toMatch(/exactly one/);
    expect(
      errorText(await call(agent, 'emails_timeline', { organizationId: f.orgA.id, mailerMessageId: 'msg-b1-001' })),
    ).toBe('Email not found');
    expect(
      errorText(await call(agent, 'emails_timeline', { organizationId: f.orgA.id, projectId: f.projectB1.id })),
    ).toBe('Project not found');
  });
});

describe('document and submittal tools (the REST list code)', () => {
  it("documents_list filters, searches and pages a project's documents", async () => {
    const rfis = structured(
      await call(agent, 'documents_list', { organizationId: f.orgA.id, projectId: f.projectA1.id, format: ['rfi'] }),
    );
    expect(rfis.data.map((d: { id: string }) => d.id)).toEqual(['RFI-002', 'RFI-001']);
    expect(rfis.total).toBe(2);
    const found = structured(
      await call(agent, 'documents_list', { organizationId: f.orgA.id, projectId: f.projectA1.id, search: 'glazing' }),
    );
    expect(found.data.map((d: { id: string }) => d.id)).toEqual(['SUB-001']);
    const first = structured(
      await call(agent, 'documents_list', { organizationId: f.orgA.id, projectId: f.projectA1.id, limit: 2 }),
    );
    expect(first.hasMore).toBe(true);
    const rest = structured(
      await call(agent, 'documents_list', {
        organizationId: f.orgA.id,
        projectId: f.projectA1.id,
        limit: 2,
        cursor: first.nextCursor,
      }),
    );
    expect(rest.data.map((d: { id: string }) => d.id)).toEqual(['RFI-001']);
  });

  it("documents_list refuses bad arguments and projects outside the caller's access", async () => {
    expect(errorText(await call(agent, 'documents_list', {}))).toMatch(/projectId/);
    expect(
      errorText(
        await call(agent, 'documents_list', { organizationId: f.orgA.id, projectId: f.projectA1.id, format: ['memo'] }),
      ),
    ).toMatch(/format/);
    expect(
      errorText(await call(agent, 'documents_list', { organizationId: f.orgA.id, projectId: f.projectB1.id })),
    ).toBe('Project not found');
    expect(
      errorText(await call(agent, 'documents_list', { organizationId: f.orgA.id, projectId: 'prj_unknown' })),
    ).toBe('Project not found');
  });

  it('submittals_list reads full submittals with filters', async () => {
    const open = structured(
      await call(agent, 'submittals_list', { organizationId: f.orgA.id, projectId: f.projectA1.id, open: true }),
    );
    expect(open.data).toHaveLength(1);
    expect(open.data[0]).toMatchObject({ id: 'SUB-001', status: 'submitted', projectName: 'Pier 9 Terminal' });
    const closed = structured(
      await call(agent, 'submittals_list', {
        organizationId: f.orgA.id,
        projectId: f.projectA1.id,
        status: ['closed'],
      }),
    );
    expect(closed.data).toEqual([]);
    expect(
      errorText(
        await call(agent, 'submittals_list', { organizationId: f.orgA.id, projectId: f.projectA1.id, limit: 26 }),
      ),
    ).toMatch(/limit/);
    expect(
      errorText(await call(agent, 'submittals_list', { organizationId: f.orgA.id, projectId: f.projectB1.id })),
    ).toBe('Project not found');
  });
});
