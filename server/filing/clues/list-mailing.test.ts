import { describe, expect, it } from 'vitest';
import { isListMailing } from './list-mailing.js';

const mail = (from: string, recipients: string[], quotes = false) => ({
  from,
  recipients,
  ownDomain: 'mvqs.test',
  quotes,
});

describe('isListMailing', () => {
  it('recognises mail shown as sent to a list of the sender’s own firm or to the sender alone', () => {
    expect(isListMailing(mail('customercare@bricks.test', ['customers@bricks.test']))).toBe(true);
    expect(isListMailing(mail('westerncape@institute.test', ['members@institute.test']))).toBe(true);
    expect(isListMailing(mail('News@Stats.test', ['news@stats.test']))).toBe(true);
  });

  it('leaves mail to the caller, a conversation inside another firm and free-mail senders alone', () => {
    expect(isListMailing(mail('pm@contractor.test', ['thandeka@mvqs.test']))).toBe(false);
    expect(isListMailing(mail('pm@contractor.test', ['qs@contractor.test', 'thandeka@mvqs.test']))).toBe(false);
    expect(isListMailing(mail('pm@contractor.test', ['site@contractor.test'], true))).toBe(false);
    expect(isListMailing(mail('joe@gmail.com', ['ann@gmail.com']))).toBe(false);
    expect(isListMailing(mail('pm@contractor.test', []))).toBe(false);
  });
});
