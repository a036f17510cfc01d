import { describe, expect, it } from 'vitest';
import { splitPassing } from './passing.js';

describe('splitPassing', () => {
  it('sets apart sentences that compare with another job', () => {
    const text =
      'Priya, the district picked the gym paint: the same school colors we used at the elementary, navy and gold. Colors attached.\n' +
      'Unlike the middle school gym, the library shelving is district furnished.\n' +
      'Locks like we did at the fire station.';
    expect(splitPassing(text)).toEqual({
      main: 'Colors attached.',
      passing:
        'Priya, the district picked the gym paint: the same school colors we used at the elementary, navy and gold.\n' +
        'Unlike the middle school gym, the library shelving is district furnished.\n' +
        'Locks like we did at the fire station.',
    });
  });

  it('keeps a sentence that turns to the other project: one the reader knows, not a comparison', () => {
    const text =
      'Reviving this old thread for the other project: the district wants amendment 3 for the middle school.';
    expect(splitPassing(text)).toEqual({ main: text, passing: '' });
    expect(splitPassing('On another job we did the same.').passing).toBe('On another job we did the same.');
  });

  it('leaves a plain message whole', () => {
    const text = 'The bleacher pit in the gym needs to be 2" deeper. We can saw cut Monday.';
    expect(splitPassing(text)).toEqual({ main: text, passing: '' });
  });
});
