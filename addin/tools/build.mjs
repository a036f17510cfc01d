// Builds the add-in into dist/addin and records a hash of everything the build reads beside it.
// `--if-changed` (what `npm start` runs) skips the build when that hash still matches: a build costs ~6 s,
// the hash ~50 ms. Plain JavaScript, so it starts without the TypeScript loader.
//
//   node addin/tools/build.mjs [--if-changed]
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(repoRoot, 'dist/addin');
const stampFile = path.join(repoRoot, 'dist/addin-source-hash');
/** Pages the server serves; a build without them is not a build, whatever the stamp says. */
const pages = ['taskpane.html', 'admin.html', 'auth-callback.html'];

const isTest = (name) => /\.test\.tsx?$/.test(name);

/** Every file under `dir` (relative to the repository), tests and browser-test fixtures left out. */
function filesUnder(dir) {
  return readdirSync(path.join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !isTest(entry.name))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith(`addin${path.sep}testing${path.sep}`));
}

/** The add-in's sources, the shared schemas it imports, its help page (docs/addin.md) and the locked dependency versions. */
export function addinSourceHash() {
  const files = [...filesUnder('addin'), ...filesUnder('shared'), 'docs/addin.md', 'package-lock.json'].sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(repoRoot, file)))
      .update('\0');
  return hash.digest('hex');
}

const upToDate = (hash) =>
  existsSync(stampFile) &&
  readFileSync(stampFile, 'utf8').trim() === hash &&
  pages.every((page) => existsSync(path.join(outDir, page)));

const hash = addinSourceHash();
if (process.argv.includes('--if-changed') && upToDate(hash)) process.exit(0);

const { build } = await import('vite');
await build({ configFile: path.join(repoRoot, 'addin/vite.config.ts'), logLevel: 'error' });
writeFileSync(stampFile, `${hash}\n`);
