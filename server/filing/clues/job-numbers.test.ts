import { describe, expect, it } from 'vitest';
import {
  codeFromName,
  effectiveCode,
  jobNumbersIn,
  matchesCode,
  readableAsJobNumber,
  spellsCode,
} from './job-numbers.js';

const labelled = (text: string) =>
  jobNumbersIn(text)
    .filter((n) => n.labelled)
    .map((n) => n.value);
const bare = (text: string) =>
  jobNumbersIn(text)
    .filter((n) => !n.labelled && !n.prefix)
    .map((n) => n.value);

describe('jobNumbersIn', () => {
  it('keeps the letters written before a number, for codes such as C2411 to be matched as the organization writes them', () => {
    const prefixed = (text: string) => jobNumbersIn(text).flatMap((n) => (n.prefix ? [`${n.prefix}|${n.value}`] : []));
    expect(prefixed('[C2411] Contract instruction')).toEqual(['c|2411']);
    expect(prefixed('PBS-2411 roof')).toEqual(['pbs|2411']);
    expect(bare('PBS-2411 roof')).toEqual(['2411']);
    expect(spellsCode({ value: '2411', labelled: false, prefix: 'c' }, 'C2411')).toBe(true);
    expect(spellsCode({ value: '2411', labelled: false, prefix: 'c' }, 'J2411')).toBe(false);
    expect(spellsCode({ value: '2411', labelled: false, prefix: 'pbs' }, 'PBS-2411')).toBe(true);
  });

  it('reads the labelled forms people write', () => {
    for (const text of [
      'Pricing for job #4410 - misc metals',
      'Job 4410 sprinkler calcs',
      'job no. 4410 - VCT colors',
      'Job No: 4410',
      'Job#4410 roof warranty',
      'J4410 striping',
      'J-4410 irrigation',
      'Project 4410 wayfinding',
      'Proj. 4410 hardware',
      'Project: 4410',
      'Reference #4410.',
      '[#4410] casework',
      'Job ref 4410',
    ]) {
      expect(labelled(text), text).toEqual(['4410']);
    }
  });

  it('keeps a phase suffix and reads numbers in file names', () => {
    expect(labelled('Project 4521-02 signage')).toEqual(['4521-02']);
    expect(bare('4521-02_Lighting_Submittal.pdf')).toEqual(['4521-02']);
    expect(bare('4410_Structural_Set.pdf')).toEqual(['4410']);
    expect(bare('Breaks_4502_28day.pdf')).toEqual(['4502']);
    expect(bare('WCC-4410-Casework-R2.pdf')).toEqual(['4410']);
    expect(labelled('HW-Schedule_Job4530_v3.xlsx')).toEqual(['4530']);
    expect(labelled('Striping-Layout-J4477.pdf')).toEqual(['4477']);
    expect(bare('4477 O&M Manual - Exhaust Fans.pdf')).toEqual(['4477']);
    expect(bare('4502 - apparatus bay door operators')).toEqual(['4502']);
  });

  it('does not read money, decimals, inside longer numbers or inside words', () => {
    expect(jobNumbersIn('we can add it for $4,200 or $4410')).toEqual([]);
    // AB4410 is kept only with its letters: it matches a project whose code is AB4410, not job 4410.
    expect(
      jobNumbersIn('4410.5 feet, 1,441,000 sf, AB4410, 44100')
        .filter((n) => !n.prefix)
        .map((n) => n.value),
    ).toEqual(['44100']);
  });

  it('leaves the last part of a code of more parts to be read whole, and still reads a number after a word', () => {
    expect(bare('uren: VR-25-015 / 200')).toEqual(['200']);
    expect(bare('HC24-112 footing review')).toEqual([]);
    expect(bare('Job-4410 walk-through')).toEqual(['4410']);
    expect(bare('004 - final account prep')).toEqual(['004']);
  });
});

describe('readableAsJobNumber', () => {
  it('takes a number with letters before it or a suffix, not a code of more parts', () => {
    for (const code of ['C2411', 'PBS-2411', '4521-02', '2411']) expect(readableAsJobNumber(code)).toBe(true);
    for (const code of ['VR-25-015', 'QF-AD-25-031', 'HC24-112', 'KL-MT-B'])
      expect(readableAsJobNumber(code)).toBe(false);
  });
});

describe('project codes', () => {
  it('takes the job number at the start of a name when no code is set', () => {
    expect(codeFromName('4410 Lakeshore Public Library')).toBe('4410');
    expect(codeFromName('J-4388 Maple Grove Elementary')).toBe('4388');
    expect(codeFromName('4521-02 Westfield Transit Center Phase 2')).toBe('4521-02');
    expect(codeFromName('Northgate Parking Structure')).toBeUndefined();
    expect(codeFromName('2026 Roof Replacements')).toBe('2026');
    expect(effectiveCode({ name: 'Northgate Parking Structure', code: 'P-4477' })).toBe('4477');
    expect(effectiveCode({ name: '4410 Lakeshore', code: null })).toBe('4410');
    expect(effectiveCode({ name: 'Yard', code: 'YARD' })).toBe('yard');
  });

  it('matches a number to a code exactly or by its base number', () => {
    expect(matchesCode('4521-02', '4521-02')).toBe('exact');
    expect(matchesCode('4521', '4521-02')).toBe('base');
    expect(matchesCode('4410-02', '4410')).toBe('base');
    expect(matchesCode('4411', '4410')).toBeUndefined();
  });
});
