import { describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { createProject } from '../organizations/service.js';
import { fileEmail as file, suggest } from './suggestion-calls.fixtures.js';

const project = (name: string, aliases: string[] = []) =>
  createProject(server.database.db, { organizationId: f.orgA.id, name, aliases });

describe('what tells projects apart without their shared words', () => {
  it('a look-alike written only as its alias short form ("Ph2") is named by it', async () => {
    await project('Ballyfin Road Housing Phase 1', ['Ballyfin Ph1']);
    await project('Ballyfin Road Housing Phase 2', ['Ballyfin Ph2']);
    const [first] = await suggest({
      subject: 'Ph2 block 2 roof',
      from: { address: 'jimmy@harbor.test' },
      bodyPreview: 'Trusses up on block 2 Ph2. Jimmy',
    });
    expect(first?.projectName).toBe('Ballyfin Road Housing Phase 2');
  });

  it('what a sentence says it is not ("(not the duplexes)") does not count for it', async () => {
    const [houses, duplexes] = await Promise.all([project('Corrawn Houses'), project('Corrawn Duplexes Block')]);
    for (const i of [1, 2, 3]) {
      await file(houses!.id, {
        subject: `Tenant snag ${i}`,
        from: 'aoife@council.test',
        internetMessageId: `<tenant-${i}@council.test>`,
        bodyText: `The lock at no. ${i} is sticking.`,
      });
      await file(duplexes!.id, {
        subject: `Duplexes handover ${i}`,
        from: 'aoife@council.test',
        internetMessageId: `<duplex-${i}@council.test>`,
        bodyText: 'The duplexes handover list is attached.',
      });
    }
    const [first] = await suggest({
      subject: 'defects',
      from: { address: 'aoife@council.test' },
      bodyPreview: 'Two tenants in the houses (not the duplexes) report damp at the back doors.',
    });
    expect(first?.projectName).toBe('Corrawn Houses');
  });
});

describe('a name word weighed by how the filed mail uses it', () => {
  it('a word of one name that filed mail uses for other projects ("went well" of CareWell) does not name it', async () => {
    await project('CareWell Medical Centre');
    const showroom = await project('Lusail Motors Showroom');
    for (const i of [1, 2, 3, 4])
      await file(showroom.id, {
        subject: `Civil defence inspection ${i}`,
        from: 'bilal@fitout.test',
        internetMessageId: `<inspection-${i}@fitout.test>`,
        bodyText: 'The civil defence inspection went well, certificate next week.',
      });
    const suggestions = await suggest({
      subject: 'Inspection',
      from: { address: 'rajesh@harbor.test' },
      bodyPreview: 'The visit went well today.',
    });
    expect(suggestions[0]?.projectName).not.toBe('CareWell Medical Centre');
    expect(suggestions.find((s) => s.projectName === 'CareWell Medical Centre')?.score ?? 0).toBeLessThan(0.1);
  });
});
