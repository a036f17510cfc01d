import { describe, expect, it } from 'vitest';
import { LIKELY_SCORE } from '../../shared/filing.js';
import { f, server } from '../../test/fixture-server.js';
import { createProject } from '../organizations/service.js';
import { expectOfferedInDoubt, fileEmail as file, suggest } from './suggestion-calls.fixtures.js';

describe('narrow evidence in a suggestion', () => {
  it('a financial year in a project’s reference number does not name the project in the firm’s own mail', async () => {
    const project = await createProject(server.database.db, {
      organizationId: f.orgA.id,
      name: 'Quarry Lane Culvert',
      referenceNumbers: [{ label: 'Shire tender', value: 'QLS/CW/2031-32' }],
    });
    const budget = await suggest({
      subject: 'Training budget 2031-32 - requests by Friday',
      from: { address: 'office@harbor.test' },
      bodyPreview: 'Hi all,\nPlease send your course requests for 2031-32 so we can book the first aid refreshers.',
    });
    expect(budget.every((s) => s.score < 0.5)).toBe(true);
    const [named] = await suggest({
      subject: 'QLS/CW/2031-32 addendum 2',
      from: { address: 'tenders@shire.test' },
      bodyPreview: 'Addendum 2 changes the headwall detail.',
    });
    expect(named?.projectId).toBe(project.id);
  });

  it('an amount filed once with a project does not name it in another e-mail', async () => {
    for (const [i, projectId] of [f.projectA1.id, f.projectA2.id].entries())
      await file(projectId, {
        subject: `Statement ${i}`,
        from: 'accounts@supplier-q.test',
        internetMessageId: `<statement-${i}@supplier-q.test>`,
        bodyText: 'Your monthly statement is attached.',
      });
    await file(f.projectA1.id, {
      subject: 'Hoarding permit',
      from: 'permits@council-a.test',
      internetMessageId: '<bond-a1@council-a.test>',
      bodyText: 'The hoarding bond of 7250.00 is received.',
    });
    const refund = await suggest({
      subject: 'Refund',
      from: { address: 'accounts@supplier-q.test' },
      bodyPreview: 'Your refund of 7250.00 is on its way.',
    });
    expect(refund.every((s) => s.score < 0.5)).toBe(true);
  });

  it('a telephone number filed once with a project does not name it in another e-mail', async () => {
    await file(f.projectA1.id, {
      subject: 'Remittance advice',
      from: 'payables@client-t.test',
      internetMessageId: '<remit-1@client-t.test>',
      bodyText: 'Payment 4410 is made. For questions call our payables desk on 720.555.0934.',
    });
    const asked = await suggest({
      subject: 'Statement query',
      from: { address: 'ledger@client-u.test' },
      bodyPreview: 'Please call 720.555.0934 about the open items.',
    });
    expect(asked.every((s) => s.score < 0.5)).toBe(true);
  });

  it('a number the firm’s filed mail cites for several projects (a standard) says no more than a word', async () => {
    const cite = (projectId: string, i: number, topic: string) =>
      file(projectId, {
        subject: topic,
        from: 'contracts@builder-n.test',
        internetMessageId: `<std-${i}@builder-n.test>`,
        bodyText: `Under AS 4917 we give notice about the ${topic}.`,
      });
    for (const [i, topic] of ['gantry hire', 'wharf piles', 'berth fenders'].entries())
      await cite(f.projectA1.id, i, topic);
    for (const [i, topic] of ['lift shafts', 'facade panels'].entries()) await cite(f.projectA2.id, 10 + i, topic);
    const [first] = await suggest({
      subject: 'AS 4917',
      from: { address: 'contracts@builder-n.test' },
      bodyPreview: 'Please send the marked-up copy.',
    });
    expect(first?.score ?? 0).toBeLessThan(0.5);
  });

  it('an alarm like one filed once is likely that project, not sure: the order stays, nothing is preselected', async () => {
    await file(f.projectA2.id, {
      subject: '[Alert] Chiller fault - unit CH-20417',
      from: 'alerts@coolwatch.test',
      internetMessageId: '<alert-1@coolwatch.test>',
      bodyText:
        'Unit: CH-20417 (Frigo 40 kW)\nSite tag: DK-L2-07\nFault: F-12 condenser fan tripped\nState: running at reduced capacity\nThis notice goes to every keyholder of this unit.',
    });
    const [first] = await suggest({
      subject: '[Alert] Chiller fault - unit CH-31122',
      from: { address: 'alerts@coolwatch.test' },
      bodyPreview:
        'Unit: CH-31122 (Frigo 40 kW)\nSite tag: PT-B1-02\nFault: F-12 condenser fan tripped\nState: running at reduced capacity\nThis notice goes to every keyholder of this unit.',
    });
    expect(first?.projectId).toBe(f.projectA2.id);
    expect(first!.score).toBeLessThan(LIKELY_SCORE);
  });

  it('a reply whose thread is one project’s, with words two of its e-mails hold, and whose new text names another: scores stay probabilities', async () => {
    for (const i of [0, 1])
      await file(f.projectA1.id, {
        subject: `${i === 0 ? '' : 'RE: '}Pier 9 Terminal - bollard plaque inscription`,
        from: 'signs@engraver.test',
        internetMessageId: `<plaque-${i}@engraver.test>`,
        conversationId: 'conv-plaque',
        bodyText:
          'Proof of the bronze plaque attached: serif lettering, granite plinth, brass fixings, patina sealant.',
      });
    const answer = await suggest({
      subject: 'RE: Pier 9 Terminal - bollard plaque inscription',
      from: { address: 'signs@engraver.test' },
      conversationId: 'conv-plaque',
      bodyPreview:
        'Mia, the bronze plaque with serif lettering on the granite plinth, brass fixings and patina sealant is fine; for Dockside we need the same.\n\n> Proof of the bronze plaque attached: serif lettering, granite plinth, brass fixings, patina sealant.',
    });
    // The narrow part comes off what the clues added up to, not off the thread's cap: no negative odds, no null score.
    for (const s of answer) expect(s.score).toBeTypeOf('number');
    expectOfferedInDoubt(answer, ['Dockside Offices', 'Pier 9 Terminal'], LIKELY_SCORE);
  });
});
