import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { ctx, emailsPath, f, fileRaw, outsider, server } from './filing.fixtures.js';
import { mime } from './messages.fixtures.js';

// Finding filed mail across every project the caller may read (issue 39, "find anything"): by subject, sender,
// body words and attachment names, accents ignored, never outside the caller's scope.

const pdf = (name: string) => ({ name, type: 'application/pdf', content: Buffer.from('%PDF-1.4\n%%EOF\n') });

beforeAll(async () => {
  const filings = [
    {
      path: emailsPath(f.projectA1.id),
      message: mime({
        messageId: '<facade-a1@glaze.test>',
        from: 'Zoë Ångström <zoe@glaze.test>',
        subject: 'Façade mock-up review',
        text: 'The curtain wall anchors arrive on Monday.',
        attachments: [pdf('Élévation-Nord.pdf')],
      }),
    },
    {
      path: emailsPath(f.projectA2.id),
      message: mime({
        messageId: '<crane-a2@acme-eng.test>',
        subject: 'Crane base',
        text: 'The crane stands clear of the south façade.',
      }),
    },
  ];
  for (const filing of filings) {
    server.clock.advance(1000);
    expect((await fileRaw(filing.message, { path: filing.path })).status).toBe(201);
  }
  // Another tenant's mail with the same words.
  server.clock.advance(1000);
  const other = await fileRaw(
    mime({ messageId: '<facade-b1@ridgeline.test>', subject: 'Façade of the hospital', text: 'Curtain wall anchors.' }),
    { path: emailsPath(f.projectB1.id, f.orgB.id), token: outsider.token },
  );
  expect(other.status).toBe(201);
});

const search = async (query: string, token = f.member.token) => {
  const res = await server.call(`/v1/filed-emails?${query}`, { token });
  expect(res.status, query).toBe(200);
  return res.body as { data: { subject: string; projectId: string }[]; nextCursor: string | null; hasMore: boolean };
};
const subjects = async (text: string, token = f.member.token) =>
  (await search(`search=${encodeURIComponent(text)}`, token)).data.map((e) => e.subject);

describe('search across every project in scope', () => {
  it('finds mail of all the person’s projects by subject, sender, body and attachment name, accents ignored', async () => {
    expect(await subjects('facade')).toEqual(['Crane base', 'Façade mock-up review']);
    expect(await subjects('FAÇADE')).toEqual(['Crane base', 'Façade mock-up review']);
    expect(await subjects('zoe angstrom')).toEqual(['Façade mock-up review']);
    expect(await subjects('zoe@glaze.test')).toEqual(['Façade mock-up review']);
    expect(await subjects('anchors monday')).toEqual(['Façade mock-up review']);
    expect(await subjects('elevation nord')).toEqual(['Façade mock-up review']);
    expect(await subjects('mock-up')).toEqual(['Façade mock-up review']);
    expect(await subjects('nothing of the sort xylophone')).toEqual([]);
  });

  it('says which project each e-mail is filed in', async () => {
    const found = await server.call('/v1/filed-emails?search=facade', { token: f.member.token });
    expect(
      found.body.data.map((e: { projectId: string; projectName: string; organizationId: string }) => [
        e.organizationId,
        e.projectId,
        e.projectName,
      ]),
    ).toEqual([
      [f.orgA.id, f.projectA2.id, 'Dockside Offices'],
      [f.orgA.id, f.projectA1.id, 'Pier 9 Terminal'],
    ]);
  });

  it('never shows another tenant’s or another project’s mail', async () => {
    expect(await subjects('facade', outsider.token)).toEqual(['Façade of the hospital']);
    const oneProject = await f.client(['email:read'], { projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }] });
    expect(await subjects('facade', oneProject.token)).toEqual(['Crane base']);
    expect(await subjects('anchors', oneProject.token)).toEqual([]);
    const wholeOrg = await f.client(['email:read'], { orgs: [f.orgB.id] });
    expect(await subjects('anchors', wholeOrg.token)).toEqual(['Façade of the hospital']);
    const everyOrg = await f.client(['email:read'], { superadmin: true });
    expect(await subjects('facade', everyOrg.token)).toEqual([
      'Façade of the hospital',
      'Crane base',
      'Façade mock-up review',
    ]);
  });

  it('pages newest filing first with a cursor bound to the search', async () => {
    const first = await search('search=facade&limit=1');
    expect(first).toMatchObject({ hasMore: true, data: [{ subject: 'Crane base' }] });
    const second = await search(`search=facade&limit=1&cursor=${first.nextCursor}`);
    expect(second).toMatchObject({ hasMore: false, nextCursor: null, data: [{ subject: 'Façade mock-up review' }] });
    const otherSearch = await server.call(`/v1/filed-emails?search=crane&limit=1&cursor=${first.nextCursor}`, {
      token: f.member.token,
    });
    expect(otherSearch.status).toBe(400);
  });

  it('rejects bad input (400)', async () => {
    for (const query of ['limit=51', 'limit=0', `search=${'x'.repeat(501)}`, 'search=', 'project=x', 'cursor=junk']) {
      const res = await server.call(`/v1/filed-emails?${query}`, { token: f.member.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toEqual(expect.any(String));
    }
  });

  it('searches one project’s list accent-insensitively too', async () => {
    const res = await server.call(`${emailsPath(f.projectA1.id)}?search=facade`, { token: f.member.token });
    expect(res.body.data.map((e: { subject: string }) => e.subject)).toEqual(['Façade mock-up review']);
  });
});

describeAuthMatrix('filed e-mail search across projects', ctx, {
  method: 'GET',
  path: '/v1/filed-emails',
});
