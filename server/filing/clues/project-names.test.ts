import { describe, expect, it } from 'vitest';
import { buildNameIndex, lookalikeMatchesIn, nameMatchesIn, wordsOf } from './project-names.js';

const index = buildNameIndex([
  { id: 'lib', name: '4410 Lakeshore Public Library', aliases: ['Lakeshore Library'] },
  { id: 'mob', name: '4415 Riverside Medical Office Building', aliases: ['Riverside MOB'] },
  { id: 'fire', name: '4502 Harbor Point Fire Station No. 3', aliases: ['Station 3'] },
  { id: 'transit', name: '4521-02 Westfield Transit Center Phase 2', aliases: [] },
  { id: 'senior', name: '4530 Cedar Hills Senior Living Center', aliases: [] },
  { id: 'school', name: 'J-4388 Maple Grove Elementary School Addition', aliases: [] },
  { id: 'lakeview', name: '4460 Lakeview Community Center', aliases: [] },
]);
const matches = (text: string) => Object.fromEntries(nameMatchesIn(text, index).map((m) => [m.projectId, m.strength]));

describe('nameMatchesIn', () => {
  it('finds the name without its number and the aliases, whatever the case and punctuation', () => {
    expect(matches('Fireproofing - Riverside Medical Office Building')).toEqual({ mob: 'name' });
    expect(matches('LAKESHORE LIBRARY ENTRY GLASS')).toEqual({ lib: 'alias' });
    expect(matches('Riverside MOB - intumescent paint')).toEqual({ mob: 'alias' });
    expect(matches('the Lakeview community ctr. gym')).toEqual({ lakeview: 'name' });
  });

  it('finds two or more words of the name in order, and camel-cased names', () => {
    expect(matches('walkthrough at the Westfield transit site')).toEqual({ transit: 'phrase' });
    expect(matches('Harbor Point station - day room furniture')).toEqual({ fire: 'phrase' });
    expect(matches('Fire station no 3 - roof hatch')).toEqual({ fire: 'alias' });
    expect(matches('MapleGrove school - gym ceiling')).toEqual({ school: 'phrase' });
  });

  it('reads two words of a name written in the other order as a phrase, but not a kind of building with a word', () => {
    expect(matches('valuation for the Lakeshore Riverside split')).toEqual({ lib: 'word', mob: 'word' });
    expect(matches('the Hills Cedar access road')).toEqual({ senior: 'phrase' });
    expect(matches('the library Lakeshore')).toEqual({ lib: 'word' });
  });

  it('lets one distinctive word name a project, but not a generic or everyday word', () => {
    expect(matches('Lakeshore - glazing shop drawings')).toEqual({ lib: 'word' });
    expect(matches('at the library on Northgate, Lakeview side')).toEqual({ lakeview: 'word' });
    expect(matches('the Center, Building B, Phase 2 of the project')).toEqual({});
    expect(matches('the point is, the hills are steep by the harbor')).toEqual({});
  });

  it('counts generic words in order only weakly, and a generic word with a number not at all', () => {
    expect(matches('why medical office buildings are the hottest sector; senior living costs')).toEqual({
      mob: 'generic-phrase',
      senior: 'generic-phrase',
    });
    expect(matches('Webinar: Phase 2 of the stormwater rules')).toEqual({});
  });

  it('names the one project whose name holds a run of shared and generic words, when a word of it is no kind of building', () => {
    const oaks = buildNameIndex([
      { id: 'es', name: 'Oak Valley Elementary School Modernization', aliases: [] },
      { id: 'ms', name: 'Oak Valley Middle School Gym Addition', aliases: [] },
    ]);
    const strengths = (text: string) =>
      Object.fromEntries(nameMatchesIn(text, oaks).map((m) => [m.projectId, m.strength]));
    // "Oak Valley", all the elementary school's name has of it, is only the start of what names the middle school.
    expect(strengths('Oak Valley Middle School - team room lockers')).toEqual({ ms: 'phrase' });
    expect(strengths('lockers at Oak Valley')).toEqual({ es: 'generic-phrase', ms: 'generic-phrase' });
    // The other one's name holds only the start of what names this one.
    const phases = buildNameIndex([
      { id: 'wp1', name: 'Westgate Park Apartments Phase 1', aliases: [] },
      { id: 'wp2', name: 'Westgate Park Phase 2', aliases: [] },
    ]);
    expect(
      nameMatchesIn('Separate issue on Westgate Park Phase 2: the jet fans', phases).map((m) => m.projectId),
    ).toEqual(['wp2']);
  });

  it('does not name a project by its whole name when that is only the start of a sibling’s name written there', () => {
    // The "A" of "Stage A" is a stop word: Stage A's name reads as the start of Stage B's.
    const stages = buildNameIndex([
      { id: 'a', name: 'Marlow Terraces Stage A', aliases: [] },
      { id: 'b', name: 'Marlow Terraces Stage B', aliases: [] },
    ]);
    const named = (text: string) => nameMatchesIn(text, stages).map((m) => [m.projectId, m.strength]);
    expect(named('Marlow Terraces - Stage B facade change')).toEqual([['b', 'name']]);
    expect(named('Marlow Terraces Stage A - balcony drainage')).toEqual([['a', 'name']]);
  });

  it('ignores e-mail addresses and links', () => {
    expect(matches('write to info@lakeshorelibrary.org or see www.lakeview.example/news')).toEqual({});
  });
});

describe('misspellings and Spanish', () => {
  it('reads one typing slip in a name word of five letters or more as that word', () => {
    expect(matches('Lakeshor - glazing shop drawings')).toEqual({ lib: 'word' });
    expect(matches('Westfeild transit site walk')).toEqual({ transit: 'phrase' });
    expect(matches('the Riversdie medical office building')).toEqual({ mob: 'name' });
    // Two slips, or a short word, are not read as a name.
    expect(matches('Lakshor glazing')).toEqual({});
    expect(matches('Cedr Hills')).toEqual({});
  });

  it('reads the Spanish for kinds of building', () => {
    expect(matches('la escuela primaria Maple Grove')).toEqual({ school: 'phrase' });
    expect(wordsOf('los edificios de la fase 2')).toEqual(['building', 'phase', '2']);
  });
});

describe('lookalikeMatchesIn', () => {
  const campus = buildNameIndex([
    { id: 'gre', name: '3101 Granite Ridge Elementary School Replacement', aliases: [] },
    { id: 'grm', name: '3102 Granite Ridge Middle School HVAC Upgrade', aliases: [] },
    { id: 'wb1', name: 'Willowbrook Business Park Building A - Phase 1', aliases: [] },
    { id: 'wb2', name: 'Willowbrook Business Park Building B - Phase 2', aliases: [] },
  ]);
  const told = (...texts: string[]) => lookalikeMatchesIn(texts, campus).map((m) => [m.text, m.match.projectId]);

  it('names the look-alike whose own words are written where the words they share are', () => {
    expect(told('Granite Ridge - controls training', 'the middle school custodians')).toEqual([[1, 'grm']]);
    expect(told('Bldg B canopy at Willowbrook')).toEqual([[0, 'wb2']]);
    expect(told('Willowbrok phase 1 punch walk')).toEqual([[0, 'wb1']]);
    expect(told('la secundaria Granite Ridge')).toEqual([[0, 'grm']]);
  });

  it('names none without a shared word, and not by a word both have', () => {
    expect(told('the middle school custodians')).toEqual([]);
    expect(told('Willowbrook business park, building permit')).toEqual([]);
    expect(told('Granite Ridge school - phase 2')).toEqual([]);
    // An everyday word both names have ("ridge") does not make them look-alikes.
    expect(told('the ridge above the middle school')).toEqual([]);
  });
});

describe('wordsOf', () => {
  it('normalises case, accents, plurals, abbreviations and camel case', () => {
    expect(wordsOf('Café Buildings, MapleGrove Elem. No. 3')).toEqual([
      'cafe',
      'building',
      'maple',
      'grove',
      'elementary',
      '3',
    ]);
  });
});

describe('short forms of the organization’s project names', () => {
  const shortIndex = buildNameIndex([
    { id: 'fs9', name: 'Fire Station 9 Dandenong', aliases: [] },
    { id: 'wp1', name: 'Westgate Park Apartments Phase 1', aliases: [] },
    { id: 'wp2', name: 'Westgate Park Apartments Phase 2', aliases: [] },
    { id: 'glr', name: 'Geelong Light Rail Depot', aliases: [] },
  ]);
  const named = (text: string) => nameMatchesIn(text, shortIndex).map((m) => m.projectId);

  it('reads initials of name words with their numbers, and a name word cut before its number', () => {
    expect(named('FS9 progress claim 6')).toEqual(['fs9']);
    expect(named('GLRD variation 9')).toEqual(['glr']);
    // The whole name of phase 2; phase 1 shares only the start of it, and is not named.
    expect(
      Object.fromEntries(nameMatchesIn('WPA Ph2 tender addendum 3', shortIndex).map((m) => [m.projectId, m.strength])),
    ).toEqual({ wp2: 'name' });
    expect(lookalikeMatchesIn(['WPA Ph1 defects'], shortIndex).map((m) => m.match.projectId)).toEqual(['wp1']);
  });

  it('leaves words in running text and short forms of no project alone', () => {
    expect(named('the fs team will glrd')).toEqual([]);
    expect(named('ABC Ph7 submittal')).toEqual([]);
  });
});

describe('look-alikes told apart by what kind of work they are', () => {
  const pair = buildNameIndex([
    { id: 'reno', name: "St Brigid's Primary School Renovation", aliases: [] },
    { id: 'new', name: "St Brigid's Primary School New Building", aliases: [] },
  ]);
  const told = (...texts: string[]) => lookalikeMatchesIn(texts, pair).map((m) => m.match.projectId);

  it('reads such a word next to the shared name, not anywhere in the text', () => {
    expect(told("For the St Brigid's renovation, the hall fans need new isolators.")).toEqual(['reno']);
    expect(told("St Brigid's new building - roof access")).toEqual(['new']);
    // The shared name in the subject, the kind of work in the message: still told apart.
    expect(told("St Brigid's", 'The renovation crew starts Monday.')).toEqual(['reno']);
  });
});
