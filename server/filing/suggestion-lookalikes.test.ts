import { describe, expect, it } from 'vitest';
import { LIKELY_SCORE } from '../../shared/filing.js';
import { f, server } from '../../test/fixture-server.js';
import { createProject } from '../organizations/service.js';
import { fileEmail as file, suggest } from './suggestion-calls.fixtures.js';

const project = (name: string) => createProject(server.database.db, { organizationId: f.orgA.id, name });

describe('look-alikes told apart by what is typical of each', () => {
  it('a surveyor in a third of the first phase’s mail and in all of the second’s is the second phase’s, though counted more in the first', async () => {
    const [phase1, phase2] = [await project('Tamarind Court Phase 1'), await project('Tamarind Court Phase 2')];
    // Phase 1 has filed more: the surveyor's three setout notes among six e-mails of other trades.
    for (const i of [1, 2, 3, 4, 5, 6])
      await file(phase1.id, {
        subject: `Electrical rough-in ${i}`,
        from: 'dan@sparks.test',
        internetMessageId: `<rough-in-${i}@sparks.test>`,
        bodyText: `Rough-in of unit ${i} is done, the inspector comes Monday.`,
      });
    const setout = (phase: { id: string }, i: number) =>
      file(phase.id, {
        subject: `Setout note ${i}`,
        from: 'nick@surveyors.test',
        internetMessageId: `<setout-${phase.id}-${i}@surveyors.test>`,
        bodyText: 'Pegs for the footings are in, offsets marked on the boundary.',
      });
    for (const i of [1, 2, 3]) await setout(phase1, i);
    for (const i of [1, 2]) await setout(phase2, i);
    const suggestions = await suggest({
      subject: 'Setout',
      from: { address: 'nick@surveyors.test' },
      bodyPreview: 'Pegs for the footings are in on the east side.',
    });
    expect(suggestions.slice(0, 2).map((s) => s.projectName)).toEqual([
      'Tamarind Court Phase 2',
      'Tamarind Court Phase 1',
    ]);
  });
});

describe('how sure a look-alike leader is', () => {
  /** Four e-mails of one façade supplier to each of two projects, the first's about one thing, the second's about
   *  another; then the supplier writes about the first's. */
  async function supplierOnTwo([first, second]: { id: string }[], supplier: string, [topic, other]: [string, string]) {
    for (const i of [1, 2, 3, 4])
      for (const [p, words] of [
        [first!, topic],
        [second!, other],
      ] as const)
        await file(p.id, {
          subject: `${words} batch ${i}`,
          from: supplier,
          internetMessageId: `<${p.id}-${i}@${supplier.split('@')[1]}>`,
          bodyText: `The ${words} for this batch are drilled and galvanised as drawn.`,
        });
    return suggest({
      subject: topic,
      from: { address: supplier },
      bodyPreview: `The next ${topic} leave the galvaniser on Friday.`,
    });
  }

  it('is less sure of one of two phases than of one of two unrelated projects, on the same evidence, and keeps the order', async () => {
    const phases = await supplierOnTwo(
      [await project('Larkspur Court Phase 1'), await project('Larkspur Court Phase 2')],
      'ines@facades-one.test',
      ['louvre brackets', 'soffit linings'],
    );
    const unrelated = await supplierOnTwo(
      [await project('Osprey Lane Depot'), await project('Quarry Road School')],
      'ines@facades-two.test',
      ['parapet flashings', 'gutter outlets'],
    );
    expect(phases.slice(0, 2).map((s) => s.projectName)).toEqual(['Larkspur Court Phase 1', 'Larkspur Court Phase 2']);
    expect(unrelated.slice(0, 2).map((s) => s.projectName)).toEqual(['Osprey Lane Depot', 'Quarry Road School']);
    expect(unrelated[0]!.score).toBeGreaterThanOrEqual(LIKELY_SCORE);
    expect(phases[0]!.score).toBeLessThan(LIKELY_SCORE);
    expect(phases[1]!.score).toBeGreaterThan(unrelated[1]!.score);
  });
});

describe('look-alikes on one site', () => {
  it('the site’s address, named in the e-mail, counts once: not again for the phase whose filed mail wrote it', async () => {
    const site = (name: string) =>
      createProject(server.database.db, { organizationId: f.orgA.id, name, siteAddress: '1450 Mercer Street, Denver' });
    const [phase1, phase2] = [await site('Mercer Yards Phase 1'), await site('Mercer Yards Phase 2')];
    // Phase 1's filed mail wrote the address; phase 2's is about its cinema fit-out.
    for (const i of [1, 2])
      await file(phase1.id, {
        subject: `Hoarding permit ${i}`,
        from: 'permits@city.test',
        internetMessageId: `<hoarding-${i}@city.test>`,
        bodyText: 'The hoarding permit for 1450 Mercer Street is approved until the end of the month.',
      });
    for (const i of [1, 2])
      await file(phase2.id, {
        subject: `Cinema projection booths ${i}`,
        from: 'ana@cinefit.test',
        internetMessageId: `<booths-${i}@cinefit.test>`,
        bodyText: 'The projection booths need the acoustic lining before the screens go in.',
      });
    const suggestions = await suggest({
      subject: 'Delivery on Thursday',
      from: { address: 'ana@cinefit.test' },
      bodyPreview: 'The booths arrive at 1450 Mercer Street, Denver on Thursday morning.',
    });
    expect(suggestions.slice(0, 2).map((s) => s.projectName)).toEqual(['Mercer Yards Phase 2', 'Mercer Yards Phase 1']);
  });
});
