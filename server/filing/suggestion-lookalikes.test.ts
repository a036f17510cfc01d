import { describe, expect, it } from 'vitest';
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
