import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutToBytes } from './filing.js';

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('cutToBytes (the 8 KB body preview)', () => {
  it('keeps text that fits and cuts multi-byte text on a character boundary', () => {
    expect(cutToBytes('short', 8192)).toBe('short');
    expect(cutToBytes('ééé', 5)).toBe('éé');
    expect(cutToBytes('a😀b', 4)).toBe('a');
  });

  it('never exceeds the limit and keeps the longest prefix that fits', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 0, max: 400 }), (text, max) => {
        const cut = cutToBytes(text, max);
        expect(text.startsWith(cut)).toBe(true);
        expect(bytes(cut)).toBeLessThanOrEqual(max);
        if (cut.length < text.length) {
          const next = text.codePointAt(cut.length)! > 0xffff ? 2 : 1;
          expect(bytes(text.slice(0, cut.length + next))).toBeGreaterThan(max);
        }
      }),
    );
  });
});
