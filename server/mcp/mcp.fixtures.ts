import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, expect } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import type { Fixtures, TestServer } from '../../test/harness.js';
import type { Db } from '../db/connection.js';
import { dispatches, documents, emailMessages } from '../db/schema.js';
import type { AgentOAuth } from '../oauth/agent.fixtures.js';
import { signInAndConsent, viaServer } from '../oauth/browser.fixtures.js';

// The file's test server (test/fixture-server.ts) with the MCP data set below for each test file that imports
// this (vitest evaluates it once per file): the MCP and explorer tests' setup, and the clients and calls they
// share. The bindings are live.

export { f, server };

type McpTestIds = { orgA: string; projectA1: string; orgB: string; projectB1: string };

beforeAll(async () => {
  await insertMcpTestData(server.database.db, {
    orgA: f.orgA.id,
    projectA1: f.projectA1.id,
    orgB: f.orgB.id,
    projectB1: f.projectB1.id,
  });
});

/**
 * A small, known data set for the MCP and explorer tests: documents and e-mail records in project A1
 * (organization A) and project B1 (organization B), with every delivery status represented in A1.
 */
async function insertMcpTestData(db: Db, ids: McpTestIds) {
  await insertDocuments(db, ids);
  await insertDispatches(db, ids);
  await insertEmailMessages(db, ids);
}

/** Three documents in A1 (created 1–3 May 2025) and one in B1. */
async function insertDocuments(db: Db, ids: McpTestIds) {
  const docs = [
    { id: 'doc_a1_rfi1', number: 'RFI-001', format: 'rfi', type: 'RFI', title: 'Beam pocket depth', status: 'pending' },
    { id: 'doc_a1_rfi2', number: 'RFI-002', format: 'rfi', type: 'RFI', title: 'Door hardware', status: 'closed' },
    {
      id: 'doc_a1_sub1',
      number: 'SUB-001',
      format: 'submittal',
      type: 'Submittal',
      title: 'Glazing shop drawings',
      status: 'submitted',
    },
  ].map((d, i) => ({
    ...d,
    organizationId: ids.orgA,
    projectId: ids.projectA1,
    createdAt: new Date(Date.UTC(2025, 4, 1 + i)),
    updatedAt: new Date(Date.UTC(2025, 4, 1 + i)),
    dueDate: `2025-06-0${i + 1}`,
  }));
  docs.push({
    id: 'doc_b1_rfi1',
    number: 'RFI-900',
    format: 'rfi',
    type: 'RFI',
    title: 'Secret hospital RFI',
    status: 'pending',
    organizationId: ids.orgB,
    projectId: ids.projectB1,
    createdAt: new Date(Date.UTC(2025, 4, 9)),
    updatedAt: new Date(Date.UTC(2025, 4, 9)),
    dueDate: '2025-06-09',
  });
  await db.insert(documents).values(docs);
}

/** One dispatch of RFI-001 in A1, one of B1's RFI. */
async function insertDispatches(db: Db, ids: McpTestIds) {
  await db.insert(dispatches).values([
    {
      id: 'dsp_a1',
      organizationId: ids.orgA,
      projectId: ids.projectA1,
      documentId: 'doc_a1_rfi1',
      actionType: 'IssueDocument',
      senderName: 'Ada Admin',
      senderEmail: 'admin@harbor.test',
      title: 'RFI-001 Beam pocket depth',
      dispatchedAt: new Date('2025-05-10T09:00:00Z'),
      recipientCount: 4,
    },
    {
      id: 'dsp_b1',
      organizationId: ids.orgB,
      projectId: ids.projectB1,
      documentId: 'doc_b1_rfi1',
      actionType: 'IssueDocument',
      senderName: 'Bo',
      senderEmail: 'bo@ridgeline.test',
      title: 'RFI-900 Secret hospital RFI',
      dispatchedAt: new Date('2025-05-11T09:00:00Z'),
      recipientCount: 1,
    },
  ]);
}

/** A1's recipients, one for each delivery status, and B1's one recipient. */
async function insertEmailMessages(db: Db, ids: McpTestIds) {
  const sent = new Date('2025-05-10T09:00:00Z');
  const at = (minutes: number) => new Date(sent.getTime() + minutes * 60_000);
  const a1 = {
    organizationId: ids.orgA,
    projectId: ids.projectA1,
    dispatchId: 'dsp_a1',
    mailerMessageId: 'msg-a1-001',
    senderEmail: 'admin@harbor.test',
    senderName: 'Ada Admin',
    actionType: 'IssueDocument',
    documentId: 'doc_a1_rfi1',
    activityTitle: 'RFI-001 Beam pocket depth',
    sentAt: sent,
    createdAt: sent,
  };
  await db.insert(emailMessages).values([
    {
      ...a1,
      id: 'em_1',
      recipientEmail: 'opened@consult.test',
      recipientName: 'Olive Opened',
      delivery: at(1),
      firstOpened: at(30),
      lastOpened: at(40),
    },
    { ...a1, id: 'em_2', recipientEmail: 'delivered@consult.test', recipientName: 'Dan Delivered', delivery: at(2) },
    {
      ...a1,
      id: 'em_3',
      recipientEmail: 'bounced@consult.test',
      recipientName: 'Ben Bounced',
      bounce: at(3),
      bounceType: 'Permanent',
      bounceSubtype: 'General',
    },
    { ...a1, id: 'em_4', recipientEmail: 'pending@consult.test', recipientName: 'Pia Pending' },
    {
      ...a1,
      id: 'em_5',
      mailerMessageId: 'msg-a1-002',
      documentId: 'doc_a1_rfi2',
      activityTitle: 'RFI-002 Door hardware',
      recipientEmail: 'nobody@consult.test',
      recipientName: 'Nat Notsent',
      sentAt: null,
      notSentReason: 'Recipient unsubscribed',
    },
    {
      ...a1,
      id: 'em_b1',
      organizationId: ids.orgB,
      projectId: ids.projectB1,
      dispatchId: 'dsp_b1',
      mailerMessageId: 'msg-b1-001',
      documentId: 'doc_b1_rfi1',
      senderEmail: 'bo@ridgeline.test',
      senderName: 'Bo',
      activityTitle: 'RFI-900 Secret hospital RFI',
      recipientEmail: 'nurse@hospital.test',
      recipientName: 'Nina Nurse',
      delivery: at(5),
    },
  ]);
}

/** Files the answer to RFI-001 of project A1 (as the member) under `internetMessageId`; its filed e-mail's id. */
export async function fileRfiAnswer(server: TestServer, f: Fixtures, internetMessageId: string): Promise<string> {
  const filed = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`, {
    method: 'POST',
    token: f.member.token,
    json: {
      subject: 'RE: RFI-001 beam pocket',
      from: { address: 'rita@acme-eng.test', name: 'Rita Reyes' },
      to: ['member@harbor.test'],
      internetMessageId,
      bodyText: 'The pocket is 180 deep.',
      documentId: 'doc_a1_rfi1',
    },
  });
  if (filed.status !== 201) throw new Error(`filing the RFI answer: ${filed.status} ${JSON.stringify(filed.body)}`);
  return filed.body.id;
}

export const mcpUrl = (server: TestServer) => new URL(`${server.config.publicUrl}/mcp`);

/** The MCP SDK client, connected with an agent's OAuth provider. */
export async function connectAgent(server: TestServer, provider: AgentOAuth): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(server), { authProvider: provider, fetch: viaServer(server) }),
  );
  return client;
}

/** The MCP SDK client, connected with a bearer token (a key's). */
export async function connectWithToken(server: TestServer, token: string): Promise<Client> {
  const client = new Client({ name: 'key-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(server), {
      fetch: viaServer(server),
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** The agent's whole sign-in as Mia Member: refused, registered, signed in and consented with PKCE, connected. */
export async function signInAgent(server: TestServer, oauth: AgentOAuth): Promise<Client> {
  const first = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl(server), {
    authProvider: oauth,
    fetch: viaServer(server),
  });
  await expect(first.connect(transport)).rejects.toThrow(UnauthorizedError);
  const credentials = { email: 'member@harbor.test', password: 'member-pass-1' };
  const redirect = await signInAndConsent(server, oauth.authorizationUrl!, credentials);
  await transport.finishAuth(redirect.get('code')!);
  return connectAgent(server, oauth);
}

export const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** A tool's error text; fails unless the result is an error. */
export const errorText = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
};

/** A tool's structured result; fails if the result is an error. */
// biome-ignore lint/suspicious/noExplicitAny: structured results are asserted field by field
export const structured = (result: CallToolResult): any => {
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent;
};
