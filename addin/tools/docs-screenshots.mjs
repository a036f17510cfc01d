// Copies the screenshots the docs show from the browser tests' output (test/artifacts/addin/, written by
// `npx vitest run addin/testing`) to docs/images/addin-<name>.png, and removes docs/images/addin-*.png no longer
// listed. Run after the browser tests: `node addin/tools/docs-screenshots.mjs`.
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const artifacts = path.join(repoRoot, 'test/artifacts/addin');
const images = path.join(repoRoot, 'docs/images');

/** The states shown in README.md and docs/addin.md: the pane at 320–350 px in light and dark, and the admin console. */
const shown = [
  '03-suggestions', // 350 px, light
  '05-filed', // 350 px, light
  '05-filed-320-dark', // focus on the result
  '09-dark-mode', // 350 px, Office's dark theme, keyboard focus
  '27-attachments-over-limit', // 320 px, light: select all/none, total, the 25 MB warning
  'layout-320-dark', // a long attachment name cut, its size kept
  'mouse-320-light-project',
  'mouse-320-dark-rfi',
  '20-no-host',
  '22-offline',
  '26-shared-mailbox-filed',
  '13-admin-key-secret', // admin console at 1280 px
  'admin-usage-320-dark', // admin console's key list at 320 px
];

const missing = shown.filter((name) => !existsSync(path.join(artifacts, `${name}.png`)));
if (missing.length) {
  console.error(`Run the browser tests first; missing in ${artifacts}: ${missing.join(', ')}`);
  process.exit(1);
}
for (const name of shown) copyFileSync(path.join(artifacts, `${name}.png`), path.join(images, `addin-${name}.png`));
for (const file of readdirSync(images)) {
  if (file.startsWith('addin-') && !shown.includes(file.slice('addin-'.length, -'.png'.length)))
    rmSync(path.join(images, file));
}
console.log(`docs/images: ${shown.length} add-in screenshots`);
