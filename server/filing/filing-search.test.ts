import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { createProject } from '../organizations/service.js';
import { ctx, emailsPath, f, fileJson, fileRaw, outsider, rfiId, server } from './filing.fixtures.js';
import { mime } from './messages.fixtures.js';

// Finding filed e-mails: where one is filed (lookup), and a project's filed e-mails (search), with their access.

describe('lookup', () => {
  beforeAll(async () => {
    // One e-mail filed into both projects of organization A, and one filed onto RFI-012.
    const shared = mime({ messageId: '<shared@acme-eng.test>', subject: 'Shared coordination' });
    expect((await fileRaw(shared)).status).toBe(201);
    expect((await fileRaw(shared, { path: emailsPath(f.projectA2.id) })).status).toBe(201);
    const answer = await fileJson({
      subject: 'RE: RFI-012',
      from: { address: 'rita@acme-eng.test', name: 'Rita Reyes' },
      to: ['member@harbor.test'],
      internetMessageId: '<rfi-12-answer@acme-eng.test>',
      bodyText: 'See the engineer answer.',
      documentId: rfiId,
    });
    expect(answer.status).toBe(201);
  });

  it('tells where an e-mail is filed, within the caller scope', async () => {
    const res = await server.call('/v1/filed-emails/lookup?internetMessageId=%3CShared@acme-eng.test%3E', {
      token: f.member.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.internetMessageId).toBe('shared@acme-eng.test');
    expect(res.body.filings.map((x: { projectId: string }) => x.projectId).sort()).toEqual(
      [f.projectA1.id, f.projectA2.id].sort(),
    );
    expect(res.body.filings[0]).toMatchObject({
      organizationId: f.orgA.id,
      filedBy: { id: f.member.id, email: 'member@harbor.test' },
    });

    const projectKey = await f.client(['email:read'], { projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }] });
    const scoped = await server.call('/v1/filed-emails/lookup?internetMessageId=shared@acme-eng.test', {
      token: projectKey.token,
    });
    expect(scoped.body.filings.map((x: { projectId: string }) => x.projectId)).toEqual([f.projectA2.id]);

    const otherTenant = await server.call('/v1/filed-emails/lookup?internetMessageId=shared@acme-eng.test', {
      token: outsider.token,
    });
    expect(otherTenant.status).toBe(200);
    expect(otherTenant.body.filings).toEqual([]);
  });

  it('shows the document a filing is on', async () => {
    const res = await server.call('/v1/filed-emails/lookup?internetMessageId=rfi-12-answer@acme-eng.test', {
      token: f.member.token,
    });
    expect(res.body.filings).toEqual([expect.objectContaining({ documentId: rfiId, documentNumber: 'RFI-012' })]);
  });

  it('requires internetMessageId', async () => {
    const res = await server.call('/v1/filed-emails/lookup', { token: f.member.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/internetMessageId/);
  });
});

describe('search', () => {
  let projectId: string;
  beforeAll(async () => {
    // A project of its own so the other tests' filings do not interfere with counts.
    projectId = (await createProject(server.database.db, { organizationId: f.orgA.id, name: 'Search Yard' })).id;
    const messages = [
      { id: 'a', from: 'rita@acme-eng.test', to: 'member@harbor.test', subject: 'Crane base', date: '02 Feb 2026' },
      { id: 'b', from: 'omar@glazeco.test', to: 'ada@harbor.test', subject: 'Glazing mockup', date: '10 Feb 2026' },
      { id: 'c', from: 'rita@acme-eng.test', to: 'omar@glazeco.test', subject: 'Anchor bolts', date: '20 Feb 2026' },
    ];
    for (const [i, m] of messages.entries()) {
      server.clock.advance(1000);
      const res = await fileRaw(
        mime({
          messageId: `<search-${m.id}@x.test>`,
          from: m.from,
          to: m.to,
          subject: m.subject,
          date: `${m.date} 09:00:00 +0000`,
          attachments:
            i === 2 ? [{ name: 'bolt schedule.txt', type: 'text/plain', content: Buffer.from('galvanized M24') }] : [],
        }),
        { path: emailsPath(projectId) },
      );
      expect(res.status).toBe(201);
    }
  });

  const list = async (query: string) => {
    const res = await server.call(`${emailsPath(projectId)}${query}`, { token: f.member.token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const subjects = (body: { data: { subject: string }[] }) => body.data.map((e) => e.subject);

  it('lists newest filing first with a keyset cursor', async () => {
    const first = await list('?limit=2');
    expect(subjects(first)).toEqual(['Anchor bolts', 'Glazing mockup']);
    expect(first.hasMore).toBe(true);
    const second = await list(`?limit=2&cursor=${first.nextCursor}`);
    expect(subjects(second)).toEqual(['Crane base']);
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('searches subject, participants and attachment names and text', async () => {
    expect(subjects(await list('?search=crane'))).toEqual(['Crane base']);
    expect(subjects(await list('?search=galvanized'))).toEqual(['Anchor bolts']);
    expect(subjects(await list('?search=schedule'))).toEqual(['Anchor bolts']);
    expect(subjects(await list('?search=glazeco.test'))).toEqual(['Anchor bolts', 'Glazing mockup']);
  });

  it('filters by sender, recipient, attachments and sent-date range', async () => {
    expect(subjects(await list('?from=Rita@acme-eng.test'))).toEqual(['Anchor bolts', 'Crane base']);
    expect(subjects(await list('?to=omar@glazeco.test'))).toEqual(['Anchor bolts']);
    expect(subjects(await list('?hasAttachments=true'))).toEqual(['Anchor bolts']);
    expect(subjects(await list('?sentAt=2026-02-05,2026-02-10'))).toEqual(['Glazing mockup']);
    expect(subjects(await list('?sentAt=,2026-02-02'))).toEqual(['Crane base']);
    expect(subjects(await list(`?documentId=${rfiId}`))).toEqual([]);
  });

  it('rejects bad filters and a cursor made for other filters', async () => {
    for (const query of ['?sentAt=2026-02-30', '?hasAttachments=yes', '?limit=51', `?search=${'x'.repeat(501)}`]) {
      const res = await server.call(`${emailsPath(projectId)}${query}`, { token: f.member.token });
      expect(res.status, query).toBe(400);
    }
    const first = await list('?limit=1');
    const res = await server.call(`${emailsPath(projectId)}?limit=1&from=x@y.test&cursor=${first.nextCursor}`, {
      token: f.member.token,
    });
    expect(res.status).toBe(400);
  });

  it('answers 404 for an e-mail of another project', async () => {
    const first = await list('?limit=1');
    const res = await server.call(`${emailsPath(f.projectA2.id)}/${first.data[0].id}`, { token: f.member.token });
    expect(res.status).toBe(404);
  });
});

describe('search finds any subject text', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await createProject(server.database.db, { organizationId: f.orgA.id, name: 'Bracket Wharf' })).id;
    const subjects = ['RE: <Pier 9> steel <RFI-12> answer', '[EXT] The Who #4471', 'Crane base'];
    for (const [i, subject] of subjects.entries()) {
      const res = await fileRaw(mime({ messageId: `<brackets-${i}@x.test>`, subject }), {
        path: emailsPath(projectId),
      });
      expect(res.status).toBe(201);
    }
  });

  const found = async (search: string) => {
    const res = await server.call(`${emailsPath(projectId)}?search=${encodeURIComponent(search)}`, {
      token: f.member.token,
    });
    expect(res.status, search).toBe(200);
    return res.body.data.map((e: { subject: string }) => e.subject);
  };

  it('finds subjects with angle brackets by the text in them, whole or in words', async () => {
    const brackets = ['RE: <Pier 9> steel <RFI-12> answer'];
    for (const search of ['<Pier 9>', '<RFI-12>', 'Pier', 'rfi-12', 'steel answer', 'pier 9 steel', '9> steel <RFI']) {
      expect(await found(search), search).toEqual(brackets);
    }
  });

  it('finds stop words, tags and numbers typed as they stand in the subject', async () => {
    for (const search of ['The Who', '[EXT]', '#4471']) {
      expect(await found(search), search).toEqual(['[EXT] The Who #4471']);
    }
    expect(await found('crane')).toEqual(['Crane base']);
    expect(await found('<Crane>')).toEqual(['Crane base']);
    expect(await found('<Dockside>')).toEqual([]);
  });
});

describeAuthMatrix('filed e-mail search', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/emails',
});

describeAuthMatrix('filed e-mail detail', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/emails/{emailId}',
  vars: () => ({ emailId: 'fem_missing' }),
  expectOk: (res) => expect(res.status).toBe(404),
});

describeAuthMatrix('filed e-mail lookup', ctx, {
  method: 'GET',
  path: '/v1/filed-emails/lookup?internetMessageId=x@y.test',
});
