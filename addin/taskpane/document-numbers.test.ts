import { expect, it } from 'vitest';
import { numberMatches, numberQueryOf, rankForNumber } from './document-numbers.js';

it('a typed number picks the document whose own number it is, RFIs first', () => {
  expect(numberQueryOf('080')).toEqual({ value: '80' });
  expect(numberQueryOf('RFI 80')).toEqual({ kind: 'RFI', value: '80' });
  expect(numberQueryOf('curtain')).toBeUndefined();
  expect(numberMatches({ value: '80' }, 'SUB-080')).toBe(true);
  expect(numberMatches({ value: '80' }, 'SUB-1080')).toBe(false);
  expect(numberMatches({ value: '80' }, 'RFI-0801')).toBe(false);
  expect(numberMatches({ kind: 'RFI', value: '80' }, 'SUB-080')).toBe(false);
  expect(numberMatches({ value: '1' }, '03 30 00-001')).toBe(true);
  const docs = [
    { number: 'SUB-1080', format: 'submittal' },
    { number: 'SUB-080', format: 'submittal' },
    { number: 'RFI-080', format: 'rfi' },
  ];
  expect(rankForNumber('080', docs).map((d) => d.number)).toEqual(['RFI-080', 'SUB-080', 'SUB-1080']);
});
