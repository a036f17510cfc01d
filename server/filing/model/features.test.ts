import { describe, expect, it } from 'vitest';
import { joinDigitGroups, textFeatures } from './features.js';

describe('numbers as features', () => {
  it('reads an amount with grouped thousands as one number, so a contract sum names its contract', () => {
    const features = textFeatures('Total of the Prices R 95 600 000.00; retention R (3 112 922.75); $ 1 250 000 paid');
    expect(features.has('n:9560000000')).toBe(true);
    expect(features.has('n:311292275')).toBe(true);
    expect(features.has('n:1250000')).toBe(true);
    // No fragment of a sum is a number of its own that another e-mail's quantity could share.
    for (const fragment of ['n:600', 'n:000', 'n:00000', 'n:112', 'n:250']) expect(features.has(fragment)).toBe(false);
  });

  it('keeps separate numbers apart where nothing says they are one amount', () => {
    expect(joinDigitGroups('phase 1 240 units, tel 011 555 0222')).toBe('phase 1 240 units, tel 011 555 0222');
  });

  it('does not take a year for an identifier', () => {
    const features = textFeatures('2026 price list for GDID/T/117/2024');
    expect(features.has('n:2026')).toBe(false);
    expect(features.has('n:gdidt1172024')).toBe(true);
  });
});

describe('codes of several parts', () => {
  it('reads a client reference with few digits as an identifier, not a small quantity', () => {
    expect(textFeatures('BPD-RVG-01 cost report').has('n:bpdrvg01')).toBe(true);
    expect(textFeatures('the 3rd floor, Ph2, x2').size).toBe(1);
  });

  it('reads a code in capitals without a digit as an identifier, not letters of words', () => {
    const features = textFeatures('Invoice INV-12117 Project KL-MT-B, paid up-to-date; kl-mt-b');
    expect(features.has('n:klmtb')).toBe(true);
    expect(textFeatures('an up-to-date, one-to-one walk-through').has('n:uptodate')).toBe(false);
    expect(textFeatures('made in the U-S-A').has('n:usa')).toBe(false);
  });

  it('keeps a short number of a code of several lettered parts within the code, a longer one also alone', () => {
    const features = textFeatures('HYL-BWE-SHD-STL-014 and PO-4471, RFI 014');
    expect(features.has('n:hylbweshdstl014')).toBe(true);
    expect(features.get('n:014')).toBe('014');
    expect(features.has('n:4471')).toBe(true);
    expect(textFeatures('HYL-BWE-SHD-STL-014').has('n:014')).toBe(false);
    expect(textFeatures('RFI-014').has('n:014')).toBe(true);
  });
});
