import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { configureFixtureServer, f, server, startInstance } from '../../test/fixture-server.js';
import { insertDocument } from '../../test/harness.js';
import { projectMembers } from '../db/schema.js';
import { PERSON_NEEDED } from '../http/route.js';
import { createProject } from '../organizations/service.js';
import { createUser } from '../users/service.js';
import { provider, startProvider } from './ai-provider.fixtures.js';
import { mime } from './messages.fixtures.js';

let aiEnv: Record<string, string>;

configureFixtureServer(async () => {
  aiEnv = { AI_BASE_URL: await startProvider(), AI_API_KEY: 'sk-test', AI_MODEL: 'test-model' };
  return { env: aiEnv };
});

beforeAll(async () => {
  const db = server.database.db;
  await insertDocument(db, {
    id: 'doc_dock_rfi7',
    organizationId: f.orgA.id,
    projectId: f.projectA2.id,
    number: 'RFI-007',
    title: 'Dock leveller pit depth',
  });
  const consultant = await createUser(db, { email: 'dora@dockdesign.test', name: 'Dora Dock' });
  await db
    .insert(projectMembers)
    .values({ organizationId: f.orgA.id, projectId: f.projectA2.id, userId: consultant.id, role: 'consultant' });
  // Filing history: Acme engineers write about Pier 9, Glazeco about Dockside.
  const history = [
    ...[1, 2, 3, 4].map((i) => ({ from: `rita@acme-eng.test`, project: f.projectA1.id, n: `acme-${i}` })),
    { from: 'raj@acme-eng.test', project: f.projectA1.id, n: 'acme-raj' },
    ...[1, 2, 3].map((i) => ({ from: 'omar@glazeco.test', project: f.projectA2.id, n: `glaze-${i}` })),
    { from: 'rita@acme-eng.test', project: f.projectA2.id, n: 'acme-dock' },
  ];
  for (const h of history) {
    const res = await server.call(`/v1/organization/${f.orgA.id}/project/${h.project}/emails`, {
      method: 'POST',
      token: f.member.token,
      headers: { 'content-type': 'message/rfc822' },
      body: mime({ messageId: `<${h.n}@history.test>`, from: h.from, subject: `Site matters ${h.n}` }),
    });
    expect(res.status).toBe(201);
  }
  const threaded = await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA2.id}/emails`, {
    method: 'POST',
    token: f.member.token,
    json: {
      subject: 'Ramp',
      from: 'omar@glazeco.test',
      to: ['member@harbor.test'],
      internetMessageId: '<ramp@glazeco.test>',
      conversationId: 'conv-ramp',
      bodyText: 'Ramp glazing',
    },
  });
  expect(threaded.status).toBe(201);
});
afterAll(async () => {
  provider.server?.closeAllConnections();
  await new Promise((resolve) => provider.server?.close(resolve));
});
beforeEach(async () => {
  provider.requests = [];
  provider.mode = 'reverse';
  await setAiSuggest(f.orgA.id, false);
});

/** Staff flip the switch through the admin API, as in production. */
async function setAiSuggest(orgId: string, aiSuggest: boolean) {
  const res = await server.call(`/v1/admin/organizations/${orgId}/email-filing-settings`, {
    method: 'PATCH',
    token: f.staff.token,
    json: { aiSuggest },
  });
  expect(res.status).toBe(200);
  expect(res.body.data.aiSuggest).toBe(aiSuggest);
}

const suggest = (json: Record<string, unknown>, token = f.member.token, target = server) =>
  target.call('/v1/filing/suggestions', { method: 'POST', token, json });

const fromAcme = {
  subject: 'Question about the deck',
  from: 'rita@acme-eng.test',
  to: ['member@harbor.test'],
  bodyPreview: 'Hi Mia, see below.',
};

describe('local ranking', () => {
  it("ranks the project where the sender's e-mails are filed first, and says why", async () => {
    const res = await suggest(fromAcme);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'local', aiUsed: false });
    const [top, second] = res.body.suggestions;
    expect(top).toMatchObject({ organizationId: f.orgA.id, projectId: f.projectA1.id, projectName: 'Pier 9 Terminal' });
    expect(top.reasons.join(' ')).toContain('rita@acme-eng.test');
    expect(second.projectId).toBe(f.projectA2.id);
    expect(top.score).toBeGreaterThan(second.score);
    expect(top.score).toBeLessThanOrEqual(1);
  });

  it("uses the sender's domain for a new sender", async () => {
    const res = await suggest({ ...fromAcme, from: 'newbie@acme-eng.test' });
    expect(res.body.suggestions[0].projectId).toBe(f.projectA1.id);
    expect(res.body.suggestions[0].reasons.join(' ')).toContain('acme-eng.test');
  });

  it('follows a thread that is already filed (Outlook conversation id)', async () => {
    const res = await suggest({ ...fromAcme, conversationId: 'conv-ramp' });
    expect(res.body.suggestions[0]).toMatchObject({ projectId: f.projectA2.id });
    expect(res.body.suggestions[0].reasons).toContain('This conversation is already filed here');
  });

  it('names the document when the message quotes its number', async () => {
    const res = await suggest({ ...fromAcme, from: 'someone@elsewhere.test', subject: 'Re: RFI 7 pit depth' });
    expect(res.body.suggestions[0]).toMatchObject({
      projectId: f.projectA2.id,
      documentId: 'doc_dock_rfi7',
      documentNumber: 'RFI-007',
    });
  });

  it('uses the project name in the subject and the project directory', async () => {
    const byName = await suggest({ ...fromAcme, from: 'x@elsewhere.test', subject: 'Dockside Offices: keys' });
    expect(byName.body.suggestions[0].projectId).toBe(f.projectA2.id);
    const byDirectory = await suggest({ ...fromAcme, from: 'dora@dockdesign.test', subject: 'Hello' });
    expect(byDirectory.body.suggestions[0].projectId).toBe(f.projectA2.id);
    expect(byDirectory.body.suggestions[0].reasons.join(' ')).toContain('directory');
  });

  it("lets a project named in the content outweigh the sender's filing history in another project", async () => {
    // rita@acme-eng.test has four e-mails filed in Pier 9 and one in Dockside: a firm on both projects.
    const byName = await suggest({ ...fromAcme, bodyPreview: 'Hi Mia, the Dockside Offices stair needs a decision.' });
    expect(byName.body.suggestions[0].projectId).toBe(f.projectA2.id);
    expect(byName.body.suggestions[1].projectId).toBe(f.projectA1.id);
    const byDocument = await suggest({
      ...fromAcme,
      subject: 'Pit depth',
      bodyPreview: 'Our answer to RFI-007 below.',
    });
    expect(byDocument.body.suggestions[0]).toMatchObject({ projectId: f.projectA2.id, documentNumber: 'RFI-007' });
    await insertDocument(server.database.db, {
      id: 'doc_dock_qt3',
      organizationId: f.orgA.id,
      projectId: f.projectA2.id,
      number: 'QT-003',
      format: 'standard',
      type: 'Quote',
      title: 'Glazing quote',
    });
    const byQuote = await suggest({ ...fromAcme, subject: 'QT-003 – following up' });
    expect(byQuote.body.suggestions[0]).toMatchObject({ projectId: f.projectA2.id, documentNumber: 'QT-003' });
    // omar@glazeco.test has all his filed e-mails in Dockside (sender and domain at full weight): history
    // is capped below one clue in the body.
    const omar = await suggest({ ...fromAcme, from: 'omar@glazeco.test', bodyPreview: 'Glazing for Pier 9 Terminal.' });
    expect(omar.body.suggestions.map((s: { projectId: string }) => s.projectId)).toEqual([
      f.projectA1.id,
      f.projectA2.id,
    ]);
    // SI-004 is in Dockside and in a project nobody of acme-eng.test writes to: among rita's projects it
    // names Dockside alone.
    const quay = await createProject(server.database.db, { organizationId: f.orgA.id, name: 'Quay Sheds' });
    for (const [id, projectId] of [
      ['doc_dock_si4', f.projectA2.id],
      ['doc_quay_si4', quay.id],
    ] as const) {
      await insertDocument(server.database.db, {
        id,
        organizationId: f.orgA.id,
        projectId,
        number: 'SI-004',
        format: 'standard',
        type: 'SI',
        title: 'Site instruction',
      });
    }
    const byShared = await suggest({ ...fromAcme, subject: 'SI-004 – following up' });
    expect(byShared.body.suggestions[0]).toMatchObject({ projectId: f.projectA2.id, documentNumber: 'SI-004' });
    // Without a clue in the content, her history still decides.
    expect((await suggest(fromAcme)).body.suggestions[0].projectId).toBe(f.projectA1.id);
  });

  it('returns nothing for a message with no evidence, and only projects of the caller organizations', async () => {
    const none = await suggest({ subject: 'Lunch?', from: 'friend@elsewhere.test', to: [], bodyPreview: '' });
    expect(none.body.suggestions).toEqual([]);
    await createProject(server.database.db, { organizationId: f.orgB.id, name: 'Pier 9 Terminal Annex' });
    const ridgeline = await createUser(server.database.db, {
      email: 'rob@ridgeline.test',
      name: 'Rob',
      memberships: [{ orgId: f.orgB.id, role: 'member' }],
    });
    const other = await suggest(fromAcme, f.userToken(ridgeline.id));
    expect(other.status).toBe(200);
    expect(other.body.suggestions.every((s: { organizationId: string }) => s.organizationId === f.orgB.id)).toBe(true);
  });

  it('rejects a body preview over 8 KB and other bad input (400)', async () => {
    expect((await suggest({ ...fromAcme, bodyPreview: 'x'.repeat(8 * 1024 + 1) })).status).toBe(400);
    expect((await suggest({ ...fromAcme, from: 'nope' })).status).toBe(400);
    expect((await suggest({ ...fromAcme, surprise: true })).status).toBe(400);
  });
});

describe('suggestion access', () => {
  it('refuses no token and a bad token (401), and client keys (403)', async () => {
    expect((await suggest(fromAcme, '')).status).toBe(401);
    expect((await suggest(fromAcme, 'garbage')).status).toBe(401);
    const key = await f.client('all', { orgs: [f.orgA.id] });
    const res = await suggest(fromAcme, key.token);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(PERSON_NEEDED);
    expect(res.body.error).toContain('only a signed-in person');
  });
});

describe('AI re-ranking and the aiSuggest switch', () => {
  it('sends nothing to the provider when aiSuggest is false, whatever the client claims', async () => {
    await server.call(`/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`, {
      method: 'POST',
      token: f.member.token,
      headers: { 'content-type': 'message/rfc822' },
      body: mime({ messageId: '<no-ai@x.test>', from: 'rita@acme-eng.test' }),
    });
    for (const claim of [{}, { allowAi: true }]) {
      const res = await suggest({ ...fromAcme, ...claim });
      expect(res.body).toMatchObject({ source: 'local', aiUsed: false });
    }
    expect(provider.requests).toHaveLength(0);
  });

  it('uses the provider ranking when aiSuggest is true, sending only the minimum', async () => {
    await setAiSuggest(f.orgA.id, true);
    const local = (await suggest({ ...fromAcme, allowAi: false })).body.suggestions.map(
      (s: { projectId: string }) => s.projectId,
    );
    expect(provider.requests).toHaveLength(0);
    const res = await suggest({ ...fromAcme, cc: ['raj@acme-eng.test'], bodyPreview: 'Call me: rita@acme-eng.test' });
    expect(res.body).toMatchObject({ source: 'local+ai', aiUsed: true });
    expect(res.body.suggestions.map((s: { projectId: string }) => s.projectId)).toEqual([...local].reverse());
    expect(res.body.suggestions[0].reasons[0]).toBe('Ranked by the AI assistant');
    expect(provider.requests).toHaveLength(1);
    const sent = provider.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.authorization).toBe('Bearer sk-test');
    expect(sent.body.model).toBe('test-model');
    const wire = JSON.stringify(sent.body);
    // Domains, never addresses or ids.
    expect(wire).toContain('acme-eng.test');
    expect(wire).not.toContain('rita@');
    expect(wire).not.toContain('raj@');
    expect(wire).not.toContain(f.projectA1.id);
    expect(wire).not.toContain(f.orgA.id);
  });

  it('asks the provider about a reply that leaves its topic and names several projects, however sure local is', async () => {
    await setAiSuggest(f.orgA.id, true);
    const reply = (text: string) => ({
      subject: 'RE: Handrail load test',
      from: 'rita@acme-eng.test',
      to: ['member@harbor.test'],
      bodyPreview: `Hi Mia,\n${text}\n\n> Before the handover I want the handrail load test.`,
    });
    const switching = reply('Unrelated to Pier 9 Terminal, but for Dockside Offices can you send the set-out?');
    const local = (await suggest({ ...switching, allowAi: false })).body.suggestions;
    // Rita's mail is filed at Pier 9: the counts are sure of it.
    expect(local[0]).toMatchObject({ projectName: 'Pier 9 Terminal' });
    expect(local[0].score).toBeGreaterThanOrEqual(0.6);
    const res = await suggest(switching);
    expect(res.body).toMatchObject({ source: 'local+ai', aiUsed: true });
    expect(res.body.suggestions[0].projectName).toBe('Dockside Offices');
    // Naming one project is no doubt: local stands.
    const plain = await suggest(reply('For Pier 9 Terminal can you send the set-out?'));
    expect(plain.body).toMatchObject({ source: 'local', aiUsed: false });
    expect(provider.requests).toHaveLength(1);
  });

  it('does not ask the provider about mail whose words point at no project, however many candidates they touch', async () => {
    await setAiSuggest(f.orgA.id, true);
    const res = await suggest({
      subject: 'Webinar',
      from: 'events@expo.test',
      to: ['member@harbor.test'],
      bodyPreview: 'Join our webinar on ramp design.',
    });
    expect(res.body.suggestions.length).toBeGreaterThan(0);
    expect(res.body.suggestions[0].score).toBeLessThan(0.05);
    expect(res.body).toMatchObject({ source: 'local', aiUsed: false });
    expect(provider.requests).toHaveLength(0);
  });

  it('lets the user opt out per request', async () => {
    await setAiSuggest(f.orgA.id, true);
    const res = await suggest({ ...fromAcme, allowAi: false });
    expect(res.body.aiUsed).toBe(false);
    expect(provider.requests).toHaveLength(0);
  });

  it('falls back to the local ranking when the provider is slow, answers garbage or fails', async () => {
    await setAiSuggest(f.orgA.id, true);
    const local = (await suggest({ ...fromAcme, allowAi: false })).body.suggestions;
    for (const mode of ['slow', 'garbage', 'error'] as const) {
      provider.mode = mode;
      const res = await suggest(fromAcme);
      expect(res.status, mode).toBe(200);
      expect(res.body, mode).toMatchObject({ source: 'local', aiUsed: false });
      expect(res.body.suggestions, mode).toEqual(local);
    }
    expect(provider.requests).toHaveLength(3);
  });

  it('applies a settings change on the next request, on every instance', async () => {
    const second = await startInstance({ env: aiEnv });
    const token = second.app.context.tokens.sign(f.member.id, 'user').token;
    expect((await suggest(fromAcme, token, second)).body.aiUsed).toBe(false);
    expect((await suggest(fromAcme)).body.aiUsed).toBe(false);
    await setAiSuggest(f.orgA.id, true);
    expect((await suggest(fromAcme, token, second)).body.aiUsed).toBe(true);
    expect((await suggest(fromAcme)).body.aiUsed).toBe(true);
    await setAiSuggest(f.orgA.id, false);
    expect((await suggest(fromAcme, token, second)).body.aiUsed).toBe(false);
    expect((await suggest(fromAcme)).body.aiUsed).toBe(false);
    expect(provider.requests).toHaveLength(2);
  });

  it('sends the provider the few local candidates only, never the project list, and nothing when there is none', async () => {
    await setAiSuggest(f.orgA.id, true);
    const before = provider.requests.length;
    const ferry = {
      subject: 'Ferry berth lighting',
      from: { address: 'ines@unknown-marine.test' },
      bodyPreview: 'Fixtures for the berth are in.',
    };
    const nothingLocal = await suggest(ferry);
    expect(nothingLocal.body).toMatchObject({ suggestions: [], source: 'local', aiUsed: false });
    expect(provider.requests).toHaveLength(before);

    const res = await suggest(fromAcme);
    expect(res.body.aiUsed).toBe(true);
    const sent = JSON.parse((provider.requests.at(-1)!.body.messages as { content: string }[]).at(-1)!.content);
    expect(Object.keys(sent).sort()).toEqual(['candidates', 'email']);
    expect(Object.keys(sent.email).sort()).toEqual(
      ['attachmentNames', 'bodyStart', 'recipientDomains', 'senderDomain', 'subject'].sort(),
    );
    expect(sent.candidates.length).toBeGreaterThan(0);
    expect(sent.candidates.length).toBeLessThanOrEqual(5);
    for (const c of sent.candidates) {
      expect(Object.keys(c).sort()).toEqual(['localEvidence', 'projectCode', 'projectName', 'ref']);
    }
    // Only projects local ranking suggested: the organization's others (Dockside Offices among them) stay home.
    const suggested = res.body.suggestions.map((s: { projectName: string }) => s.projectName).sort();
    expect(sent.candidates.map((c: { projectName: string }) => c.projectName).sort()).toEqual(suggested);
  });
});

describeAuthMatrix('suggestions', () => ({ server, fixtures: f }), {
  method: 'POST',
  path: '/v1/filing/suggestions',
  json: { ...fromAcme, allowAi: false },
});
