import { describe, expect, it } from 'vitest';
import { automatedKind } from './mail-kind.js';

describe('automatedKind', () => {
  it('recognises newsletters, marketing, out-of-office replies and calendar notices', () => {
    const cases = [
      { subject: 'ENR Daily', from: 'newsletter@enr-news.com', body: 'Stories …' },
      { subject: 'Fall specials', from: 'sales@rentals.test', body: 'Save 15%.\nUnsubscribe' },
      { subject: 'Automatic reply: Out of office', from: 'pm@firm.test', body: 'Back Monday.' },
      { subject: 'Out of office', from: 'pm@firm.test', body: 'Back Monday.' },
      { subject: 'Invitation: PM meeting @ Mon 8am', from: 'pm@firm.test', body: 'Agenda to follow.' },
      { subject: 'Respuesta automática: fuera de la oficina', from: 'luis@concrete.test', body: 'Regreso el lunes.' },
      {
        subject: 'Site visit - new pool plant',
        from: 'region@institute.test',
        body: 'Places limited.\nYou are receiving this because you are a member of the region.',
      },
    ];
    for (const c of cases) expect(automatedKind(c), c.subject).not.toBeNull();
  });

  it('leaves mail a person wrote about work alone', () => {
    const cases = [
      { subject: 'RE: Invitation to bid - roofing', from: 'est@roof.test', body: 'We will bid.' },
      { subject: 'Office trailer move', from: 'super@firm.test', body: 'The office trailer moves Monday.' },
      { subject: 'Garage deck pour', from: 'info.luis@concrete.test', body: 'Pour at 6.' },
    ];
    for (const c of cases) expect(automatedKind(c), c.subject).toBeNull();
  });

  it("tells a machine address's notice from a mailing", () => {
    const notice = {
      subject: 'Application DCD-1 - Inspection scheduled',
      from: 'no-reply@dcd.test',
      body: 'Building: Mall',
    };
    expect(automatedKind(notice)).toBe('notice');
    expect(automatedKind({ ...notice, body: 'Building: Mall\nUnsubscribe' })).toBe('bulk');
  });
});
