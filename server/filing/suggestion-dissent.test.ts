import { describe, expect, it } from 'vitest';
import { LIKELY_SCORE } from '../../shared/filing.js';
import { f } from '../../test/fixture-server.js';
import { expectOfferedInDoubt, fileEmail as file, suggest } from './suggestion-calls.fixtures.js';

/** Both projects offered first and second, and the first not preselected: the e-mail is in doubt. */
const expectOfferedBoth = (suggestions: { projectName: string; score: number }[], names: string[]) =>
  expectOfferedInDoubt(suggestions, names, LIKELY_SCORE);

// Dockside's own words, taught by its filed mail: its mezzanine shelving and the reading room.
const teachDockside = async (test: string) => {
  for (const [i, text] of [
    'The mezzanine shelving brackets are fixed and the reading room carpet is down.',
    'Reading room lights are in; the mezzanine shelving needs a second coat.',
    'Mezzanine shelving signed off.',
  ].entries())
    await file(f.projectA2.id, {
      subject: `Fit-out note ${i}`,
      from: 'lena@fitout.test',
      internetMessageId: `<${test}-${i}@fitout.test>`,
      bodyText: text,
    });
};

describe('the new text read alone', () => {
  it('a reply whose subject and quote name one project and whose new text turns to another offers both, not preselected', async () => {
    await teachDockside('reply');
    const answer = await suggest({
      subject: 'RE: Pier 9 Terminal - handover date',
      from: { address: 'lena@fitout.test' },
      bodyPreview: 'Mia, the mezzanine has come loose again.\n\n> Pier 9 Terminal handover is booked for Friday.',
    });
    expectOfferedBoth(answer, ['Pier 9 Terminal', 'Dockside Offices']);
  });

  it('a new e-mail that names a project only in a short aside after its topic offers both; named up front, it is sure', async () => {
    await teachDockside('aside');
    // The photographer's studio is known, from its e-mails filed on Pier 9.
    for (const i of [1, 2, 3])
      await file(f.projectA1.id, {
        subject: `Invoice ${i}`,
        from: 'tom@studio.test',
        internetMessageId: `<invoice-${i}@studio.test>`,
        bodyText: 'Our invoice for the drone survey is attached.',
      });
    const aside = await suggest({
      subject: 'Photo shoot',
      from: { address: 'tom@studio.test' },
      bodyPreview:
        'Mia, the photographer comes on Tuesday to shoot the mezzanine shelving and the reading room for our portfolio. Please have the caretaker open up early. We may do Pier 9 Terminal in June too.',
    });
    expectOfferedBoth(aside, ['Pier 9 Terminal', 'Dockside Offices']);
    const [upFront] = await suggest({
      subject: 'Photo shoot',
      from: { address: 'tom@studio.test' },
      bodyPreview:
        'Mia, the photographer comes on Tuesday to shoot Pier 9 Terminal for our portfolio. Please have the caretaker open up early.',
    });
    expect(upFront?.projectName).toBe('Pier 9 Terminal');
    expect(upFront!.score).toBeGreaterThanOrEqual(LIKELY_SCORE);
  });
});

describe('a reply that turns to another project', () => {
  it('its new text, backing another project clearly more than its thread’s, puts that project first and the thread’s second', async () => {
    await teachDockside('turn');
    // The crane firm's mail is all filed on Pier 9: its thread and its sender both say Pier 9.
    for (const [i, text] of [
      'The tower crane is booked for Friday at 7.',
      'Tower crane lift plan for the precast stairs attached.',
    ].entries())
      await file(f.projectA1.id, {
        subject: `${i === 0 ? '' : 'RE: '}Tower crane booking`,
        from: 'omar@liftco.test',
        internetMessageId: `<turn-tower-${i}@liftco.test>`,
        conversationId: 'conv-turn-tower',
        bodyText: text,
      });
    const answer = await suggest({
      subject: 'RE: Tower crane booking',
      from: { address: 'omar@liftco.test' },
      conversationId: 'conv-turn-tower',
      bodyPreview: 'Mia, other matter: the mezzanine shelving and the reading room carpet need signing off.',
    });
    expect(answer.slice(0, 2).map((s) => s.projectName)).toEqual(['Dockside Offices', 'Pier 9 Terminal']);
    expect(answer[0]!.score).toBeLessThan(LIKELY_SCORE);
  });
});
