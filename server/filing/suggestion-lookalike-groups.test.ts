import { describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { createProject } from '../organizations/service.js';
import { fileEmail as file, suggest } from './suggestion-calls.fixtures.js';

describe('a look-alike group named by its shared word alone', () => {
  it('a reply in another project’s thread that turns to the group offers both look-alikes among the first three', async () => {
    await Promise.all(
      ['Tamsworth Care Home - new wing', 'Tamsworth Care Home - wing refurbishment'].map((name) =>
        createProject(server.database.db, { organizationId: f.orgA.id, name }),
      ),
    );
    for (const i of [0, 1])
      await file(f.projectA1.id, {
        subject: `${i === 0 ? '' : 'RE: '}Heat pump delivery`,
        from: 'eva@thermaris.test',
        internetMessageId: `<delivery-${i}@thermaris.test>`,
        conversationId: 'conv-delivery',
        bodyText: 'The heat pumps leave the depot on Monday; the crane is booked.',
      });
    const reply = await suggest({
      subject: 'RE: Heat pump delivery',
      from: { address: 'eva@thermaris.test' },
      conversationId: 'conv-delivery',
      bodyPreview:
        'Koen asked me for a price for Tamsworth: two large units for the boiler room there. Shall I send the quote to you both?\n\n> The heat pumps leave the depot on Monday.',
    });
    const firstThree = reply.slice(0, 3).map((s) => s.projectName);
    expect(firstThree).toContain('Tamsworth Care Home - new wing');
    expect(firstThree).toContain('Tamsworth Care Home - wing refurbishment');
  });
});
