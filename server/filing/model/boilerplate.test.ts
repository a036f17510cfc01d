import { describe, expect, it } from 'vitest';
import { parseMailBody } from '../clues/mail-body.js';
import { lineKeys, withoutLines } from './boilerplate.js';

describe('withoutLines', () => {
  const sender = { name: 'Megan Hart', address: 'megan@buildco.test' };
  const body = 'Mia,\nThe jet fans are up.\n\nMegan Hart\nProject Manager\nLevel 4, 220 Kings Way, South Melbourne';
  // Her name and title are in her filed mail of several projects; this office address is new.
  const boilerplate = new Set(lineKeys('Megan Hart\nProject Manager'));

  it('drops the lines a sender writes in every project’s mail', () => {
    expect(withoutLines(body, boilerplate, sender)).not.toContain('Project Manager');
  });

  it('keeps the line the signature starts at, so the rest of the signature is not read as what she wrote', () => {
    const { text, signatures } = parseMailBody(withoutLines(body, boilerplate, sender), sender);
    expect(text).toBe('Mia,\nThe jet fans are up.');
    expect(signatures.join('\n')).toContain('Kings Way');
  });
});
