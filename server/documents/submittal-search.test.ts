import { describe, expect, it } from 'vitest';
import { a1, get, walk } from './submittals.fixtures.js';

describe('GET …/document/submittals', () => {
  describe('search', () => {
    it('finds partial numbers (trigram) and words of the title in the requested order', async () => {
      const partial = await walk({ search: 'SUB-a1-001', sortBy: 'createdAt', sortOrder: 'asc' });
      expect([...partial.uids].sort()).toEqual(
        a1
          .filter((d) => d.number.includes('SUB-a1-001'))
          .map((d) => d.id)
          .sort(),
      );
      const times = partial.rows.map((r) => r.createdAt as string);
      expect(times).toEqual([...times].sort());
      const word = await walk({ search: 'glazing' });
      const expected = a1.filter((d) => d.title.startsWith('Glazing') || d.divisionTitle?.includes('Glazing'));
      expect([...word.uids].sort()).toEqual(expected.map((d) => d.id).sort());
    });

    it('matches stemmed words of the searchable text and tolerates a misspelling', async () => {
      const stemmed = await walk({ search: 'waterproofed' });
      expect([...stemmed.uids].sort()).toEqual(
        a1
          .filter((d) => d.divisionTitle?.includes('Waterproofing'))
          .map((d) => d.id)
          .sort(),
      );
      const misspelt = await walk({ search: 'Elevater' });
      expect([...misspelt.uids].sort()).toEqual(
        a1
          .filter((d) => d.title.startsWith('Elevator'))
          .map((d) => d.id)
          .sort(),
      );
    });

    it('never matches project or organization names', async () => {
      expect((await get({ search: 'Pier Terminal' })).body.total).toBe(0);
      expect((await get({ search: 'Harbor' })).body.total).toBe(0);
    });

    it('treats search syntax and LIKE wildcards as text', async () => {
      for (const text of ['%', '_', '"unclosed', 'a & | !b', '\\']) {
        const res = await get({ search: text });
        expect(res.status, text).toBe(200);
      }
      expect((await get({ search: '%' })).body.total).toBe(0);
    });
  });
});
