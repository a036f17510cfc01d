// Fields an admin sets on a project (site address, reference numbers) through the API, and suggestions that
// use them from the first e-mail on, before any mail of the project is filed.
import { beforeAll, describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { createUser } from '../users/service.js';

let otherAdmin: string;
let otherMember: string;
let library: { id: string };

const base = () => `/v1/organization/${f.orgA.id}/project`;

beforeAll(async () => {
  const db = server.database.db;
  const [admin, member] = await Promise.all([
    createUser(db, {
      email: 'admin@ridgeline.test',
      name: 'Rob Admin',
      memberships: [{ orgId: f.orgB.id, role: 'admin' }],
    }),
    createUser(db, {
      email: 'member@ridgeline.test',
      name: 'Rae Member',
      memberships: [{ orgId: f.orgB.id, role: 'member' }],
    }),
  ]);
  otherAdmin = f.userToken(admin.id);
  otherMember = f.userToken(member.id);
  const created = await server.call(base(), {
    method: 'POST',
    token: f.admin.token,
    json: {
      name: 'Lakeshore Public Library',
      referenceNumbers: [{ label: 'Permit', value: 'BP26-0113' }],
    },
  });
  expect(created.status).toBe(201);
  library = created.body;
});

const suggest = (token: string, subject: string, bodyPreview: string) =>
  server.call('/v1/filing/suggestions', {
    method: 'POST',
    token,
    json: { subject, from: 'inspector@city.test', to: ['member@harbor.test'], bodyPreview },
  });

describe('site address and reference numbers of a project', () => {
  it('are set by an organization admin, read on the project record, and changed or removed with PATCH', async () => {
    expect(library).toMatchObject({
      siteAddress: null,
      referenceNumbers: [{ label: 'Permit', value: 'BP26-0113' }],
    });
    const path = `${base()}/${library.id}`;
    const changed = await server.call(path, {
      method: 'PATCH',
      token: f.admin.token,
      json: {
        siteAddress: '2200 N. Lakeshore Drive, Millbrook',
        referenceNumbers: [
          { label: 'Permit', value: 'BP26-0113' },
          { label: 'Owner project no.', value: 'CIP 7781' },
        ],
      },
    });
    expect(changed).toMatchObject({
      status: 200,
      body: {
        name: 'Lakeshore Public Library',
        siteAddress: '2200 N. Lakeshore Drive, Millbrook',
        referenceNumbers: [
          { label: 'Permit', value: 'BP26-0113' },
          { label: 'Owner project no.', value: 'CIP 7781' },
        ],
      },
    });
    const listed = await server.call(`${base()}?search=Lakeshore`, { token: f.member.token });
    expect(listed.body.data).toEqual([changed.body]);
    const cleared = await server.call(path, { method: 'PATCH', token: f.admin.token, json: { siteAddress: null } });
    expect(cleared.body).toMatchObject({ siteAddress: null, referenceNumbers: changed.body.referenceNumbers });
    await server.call(path, { method: 'PATCH', token: f.admin.token, json: { siteAddress: changed.body.siteAddress } });
  });

  it('put the project first for an e-mail quoting its permit number or naming its site, with nothing filed', async () => {
    const permit = await suggest(
      f.member.token,
      'Inspection result',
      'Framing inspection under permit 26-0113 passed.',
    );
    expect(permit.status).toBe(200);
    const [top] = permit.body.suggestions;
    expect(top).toMatchObject({ projectId: library.id, decidedBy: 'project-field' });
    expect(top.score).toBeGreaterThan(0.5);
    expect(top.reasons[0]).toContain('Permit BP26-0113');

    const owner = await suggest(f.member.token, 'CIP-7781 invoice', 'Please see the attached invoice.');
    expect(owner.body.suggestions[0]).toMatchObject({ projectId: library.id, decidedBy: 'project-field' });

    const site = await suggest(f.member.token, 'Delivery', 'The crane arrives at 2200 Lakeshore Dr at 7:00.');
    expect(site.body.suggestions[0]).toMatchObject({ projectId: library.id, decidedBy: 'project-field' });
    expect(site.body.suggestions[0].reasons[0]).toContain('2200 N. Lakeshore Drive');

    const otherNumber = await suggest(f.member.token, 'Inspection result', 'Framing inspection 26-0114 passed.');
    expect(otherNumber.body.suggestions).toEqual([]);
  });

  it('answer bad input with 400 and change nothing', async () => {
    const path = `${base()}/${library.id}`;
    for (const json of [
      { referenceNumbers: [{ label: 'Permit', value: 'pending' }] },
      { referenceNumbers: [{ label: 'Permit', value: 'BP-12' }] },
      { referenceNumbers: [{ label: 'Stage', value: 'phase one b' }] },
      { referenceNumbers: [{ label: 'Stage', value: 'A-B-C' }] },
      { referenceNumbers: [{ value: 'BP26-0113' }] },
      { referenceNumbers: [{ label: 'Permit', value: 'BP26-0113', note: 'x' }] },
      {
        referenceNumbers: [
          { label: 'Permit', value: 'BP26-0113' },
          { label: 'Again', value: 'bp26-0113' },
        ],
      },
      { referenceNumbers: Array.from({ length: 31 }, (_, i) => ({ label: 'PO', value: `PO-${1000 + i}` })) },
      { referenceNumbers: 'BP26-0113' },
      { siteAddress: 'Lakeshore Drive' },
      { siteAddress: 42 },
    ]) {
      const res = await server.call(path, { method: 'PATCH', token: f.admin.token, json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({ errorCode: expect.any(String), error: expect.any(String) });
    }
    const created = await server.call(base(), {
      method: 'POST',
      token: f.admin.token,
      json: { name: 'Bad Fields', referenceNumbers: [{ label: 'PO', value: '#12' }] },
    });
    expect(created.status).toBe(400);
    const listed = await server.call(`${base()}?search=Lakeshore`, { token: f.member.token });
    expect(listed.body.data[0]).toMatchObject({
      siteAddress: '2200 N. Lakeshore Drive, Millbrook',
      referenceNumbers: [{ value: 'BP26-0113' }, { value: 'CIP 7781' }],
    });
  });

  it('are neither set nor seen nor matched by another organization', async () => {
    const path = `${base()}/${library.id}`;
    const members = await server.call(path, {
      method: 'PATCH',
      token: f.member.token,
      json: { siteAddress: '1 Main St' },
    });
    expect(members.status).toBe(403);
    const foreignAdmin = await server.call(path, {
      method: 'PATCH',
      token: otherAdmin,
      json: { referenceNumbers: [] },
    });
    expect(foreignAdmin.status).toBe(403);
    const ownPath = await server.call(`/v1/organization/${f.orgB.id}/project/${library.id}`, {
      method: 'PATCH',
      token: otherAdmin,
      json: { referenceNumbers: [] },
    });
    expect(ownPath.status).toBe(404);
    expect((await server.call(base(), { token: otherMember })).status).toBe(403);
    const theirs = await server.call(`/v1/organization/${f.orgB.id}/project`, { token: otherMember });
    expect(JSON.stringify(theirs.body)).not.toContain('BP26-0113');
    const permit = await suggest(otherMember, 'Inspection result', 'Framing inspection under permit BP26-0113 passed.');
    expect(permit.status).toBe(200);
    expect(permit.body.suggestions).toEqual([]);
    const listed = await server.call(`${base()}?search=Lakeshore`, { token: f.member.token });
    expect(listed.body.data[0].referenceNumbers).toHaveLength(2);
  });
});
