import { describe, expect, it } from 'vitest';
import { documentNumbersIn } from './document-numbers.js';

describe('documentNumbersIn', () => {
  it('reads the forms people write, in every zero padding', () => {
    for (const text of ['Response to RFI-013?', 'RFI 13 answer', 'Follow up on RFI #13', 'rfi_013', 'RFI013']) {
      expect(documentNumbersIn(text).sort(), text).toEqual(['RFI-0013', 'RFI-013', 'RFI-13']);
    }
    expect(documentNumbersIn('sub-077 comments and QT-017, CO-2')).toEqual([
      'SUB-077',
      'SUB-77',
      'SUB-0077',
      'QT-017',
      'QT-17',
      'QT-0017',
      'CO-2',
      'CO-002',
      'CO-0002',
    ]);
  });

  it('does not read words that merely start like a prefix', () => {
    expect(documentNumbersIn('Subject 12, COVID 19, Quote 2026, price 45')).toEqual([]);
  });
});
