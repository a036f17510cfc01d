import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './manifest.js';

const dist = path.join(repoRoot, 'dist/addin');
const built = existsSync(path.join(dist, 'taskpane.html'));

/** Every script the task pane loads before it can render: the entry and its modulepreloads (lazy chunks excluded). */
function initialTaskPaneScripts(): string[] {
  const html = readFileSync(path.join(dist, 'taskpane.html'), 'utf8');
  const local = [...html.matchAll(/(?:src|href)="\/addin\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  return [...new Set(local)];
}

const gzippedBytes = (files: string[]) =>
  files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length, 0);

describe.skipIf(!built)(`task pane bundle${built ? '' : ' (skipped: run npm run build:addin first)'}`, () => {
  it('loads at most 250 KB of gzipped JavaScript before the first render', () => {
    const scripts = initialTaskPaneScripts();
    expect(scripts.length).toBeGreaterThan(0);
    const bytes = gzippedBytes(scripts);
    console.log(`initial task pane JS: ${(bytes / 1024).toFixed(1)} KB gzipped in ${scripts.length} files`);
    expect(bytes).toBeLessThanOrEqual(250 * 1024);
  });

  it('leaves the Filed e-mails tab out of the initial load', () => {
    expect(initialTaskPaneScripts().some((file) => file.includes('FiledEmails'))).toBe(false);
  });
});
