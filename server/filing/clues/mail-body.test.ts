import { describe, expect, it } from 'vitest';
import { parseMailBody, splitSignature } from './mail-body.js';

describe('parseMailBody', () => {
  it('reads an Outlook forward: the original sender and subject, the forwarder’s note apart', () => {
    const body = [
      'Sam - can you take this one?',
      '',
      '-----Original Message-----',
      'From: Vikram Patel <VPatel@kesslerse.com>',
      'Sent: Tuesday, November 17, 2026 3:12 PM',
      'To: Jin Park <jpark@brightlinebuilders.com>',
      'Subject: Lakeshore Library - skylight curb submittal',
      '',
      'Jin, the curb submittal is attached.',
      'Vikram',
    ].join('\r\n');
    expect(parseMailBody(body)).toEqual({
      text: 'Sam - can you take this one?',
      quoted: [
        {
          fromAddress: 'vpatel@kesslerse.com',
          subject: 'Lakeshore Library - skylight curb submittal',
          text: 'Jin, the curb submittal is attached.',
        },
      ],
      // The quoted sender signs with his first name: his signature, not his message.
      signatures: ['Vikram'],
    });
  });

  it('reads an Outlook reply header without separator and after a line of underscores', () => {
    for (const separator of ['', '________________________________']) {
      const body = `Agreed.\n\n${separator}\nFrom: Sam Ortega <sortega@brightlinebuilders.com>\nSent: Friday, November 13, 2026 10:05 AM\nTo: Grant <grant@kesslerse.com>\nSubject: special inspection - Riverside MOB\n\nGrant, can your inspector come Monday?`;
      const parsed = parseMailBody(body);
      expect(parsed.text).toBe('Agreed.');
      expect(parsed.quoted).toEqual([
        {
          fromAddress: 'sortega@brightlinebuilders.com',
          subject: 'special inspection - Riverside MOB',
          text: 'Grant, can your inspector come Monday?',
        },
      ]);
    }
  });

  it('reads a Gmail forward and a Gmail reply with a wrapped "On … wrote:" line', () => {
    const forward = parseMailBody(
      'FYI\n\n---------- Forwarded message ---------\nFrom: Lena Wong <lwong@westfieldca.gov>\nDate: Mon, Nov 16, 2026 at 10:02 AM\nSubject: Night work extension\nTo: Dan <dmorales@brightlinebuilders.com>\n\nDan, the variance is extended.',
    );
    expect(forward.quoted).toEqual([
      { fromAddress: 'lwong@westfieldca.gov', subject: 'Night work extension', text: 'Dan, the variance is extended.' },
    ]);
    const reply = parseMailBody(
      'Yes, Saturday.\n\nOn Fri, Nov 13, 2026 at 9:12 AM Sam Ortega <\nsortega@brightlinebuilders.com> wrote:\n> Minh, can you test the switch before the\n> Cedar Hills inspection?\n',
    );
    expect(reply.text).toBe('Yes, Saturday.');
    expect(reply.quoted).toEqual([
      {
        fromAddress: 'sortega@brightlinebuilders.com',
        text: 'Minh, can you test the switch before the\nCedar Hills inspection?',
      },
    ]);
  });

  it('reads an Apple Mail forward and an Apple Mail reply', () => {
    const forward = parseMailBody(
      'See below.\n\nBegin forwarded message:\n\nFrom: Rosa DeLeon <rdeleon@riversidehealth.org>\nSubject: Imaging suite lead lining\nDate: November 16, 2026 at 9:14:03 AM PST\nTo: Tina <tnguyen@brightlinebuilders.com>\n\nPlease price it.',
    );
    expect(forward.quoted).toEqual([
      { fromAddress: 'rdeleon@riversidehealth.org', subject: 'Imaging suite lead lining', text: 'Please price it.' },
    ]);
    const reply = parseMailBody(
      'Works for us.\n\nOn Nov 12, 2026, at 3:22 PM, Sam Ortega <sortega@brightlinebuilders.com> wrote:\n\n> the sidewalk at Maple Grove\n> to the bus loop',
    );
    expect(reply.quoted).toEqual([
      { fromAddress: 'sortega@brightlinebuilders.com', text: 'the sidewalk at Maple Grove\nto the bus loop' },
    ]);
  });

  it('keeps two levels of forwarding as two quoted messages', () => {
    const parsed = parseMailBody(
      'fyi\n-----Original Message-----\nFrom: A <a@one.test>\nSent: today\nSubject: second\n\nlooping you in\n\n---------- Forwarded message ---------\nFrom: B <b@two.test>\nDate: yesterday\nSubject: first\n\nthe original',
    );
    expect(parsed.quoted.map((q) => [q.fromAddress, q.subject, q.text])).toEqual([
      ['a@one.test', 'second', 'looping you in'],
      ['b@two.test', 'first', 'the original'],
    ]);
  });

  it('reads a body without quotes as the sender’s own text', () => {
    expect(parseMailBody('Just one line about job 4410.')).toEqual({
      text: 'Just one line about job 4410.',
      quoted: [],
      signatures: [],
    });
  });
});

describe('splitSignature', () => {
  it('cuts at "-- " and at a short sign-off near the end, and sets disclaimers apart', () => {
    expect(splitSignature('Pour is Monday.\n-- \nJ. Reyes\nSummit Concrete')).toEqual({
      text: 'Pour is Monday.',
      signature: '--\nJ. Reyes\nSummit Concrete'.replace('--', '-- '),
    });
    expect(splitSignature('Pour is Monday.\nBest regards,\nLena Wong\nCity of Westfield')).toEqual({
      text: 'Pour is Monday.',
      signature: 'Best regards,\nLena Wong\nCity of Westfield',
    });
    expect(
      splitSignature('Pour is Monday.\nThis e-mail is confidential and intended solely for the addressee.'),
    ).toEqual({
      text: 'Pour is Monday.',
      signature: 'This e-mail is confidential and intended solely for the addressee.',
    });
  });

  it('cuts where the sender signs with their name, with no "-- " and no sign-off, and not at a sentence naming them', () => {
    const sender = { name: 'Gerry Blouin', address: 'gblouin@northshore.test' };
    expect(
      splitSignature(
        'Dana, frames for levels 13-16 are done.\n\nGerry Blouin\nPlant Manager\nT 905-555-0100 x120',
        sender,
      ),
    ).toEqual({
      text: 'Dana, frames for levels 13-16 are done.',
      signature: 'Gerry Blouin\nPlant Manager\nT 905-555-0100 x120',
    });
    // Without a display name, a word the address holds ("blouin" of gblouin@); with credentials after a comma.
    expect(
      splitSignature('Retest passed.\nG. Blouin, P.Eng.\n416-555-0150', { address: 'gblouin@northshore.test' }).text,
    ).toBe('Retest passed.');
    expect(splitSignature('Dana,\nGerry will send the letter.\nThe sill passed.', sender).signature).toBe('');
  });

  it('keeps a sentence that merely starts with "Thanks"', () => {
    const text = 'Thanks for the quick turnaround at the library on Lakeshore.\nOnly the nosing is open.';
    expect(splitSignature(text)).toEqual({ text, signature: '' });
  });
});
