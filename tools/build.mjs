// Builds what `npm start` serves and runs, each part only when its sources changed (`--if-changed`):
// - addin: the Outlook add-in and admin console (Vite) into dist/addin (~6 s);
// - server: server/main.ts and what it imports from server/ and shared/, bundled by esbuild into dist/server
//   (one ES module per lazily imported part, packages left as imports). Starting from the bundle skips the
//   TypeScript loader's per-module round trips, about half of a start (docs/performance.md, "Start-up").
//   The same sources run under tsx (CLI) and vitest (tests); esbuild only strips types and joins modules.
// Each part records a SHA-256 of the files its build reads (paths and contents, ~50 ms) beside its output.
// Plain JavaScript, so it starts without the TypeScript loader. `npm start` runs it through tools/start.mjs.
//
//   node tools/build.mjs [addin] [server] [--if-changed]     (no part named: both)
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inRepo = (...parts) => path.join(repoRoot, ...parts);

const isTestOnly = (file) =>
  /\.(test|fixtures)\.tsx?$/.test(file) || file.startsWith(`addin${path.sep}testing${path.sep}`);

/** Every file under `dir` (relative to the repository) that a build reads: tests and test fixtures left out. */
function filesUnder(dir) {
  return readdirSync(inRepo(dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)))
    .filter((file) => !isTestOnly(file));
}

function sourceHash(files) {
  const hash = createHash('sha256');
  for (const file of [...files].sort())
    hash
      .update(`${file}\0`)
      .update(readFileSync(inRepo(file)))
      .update('\0');
  return hash.digest('hex');
}

const parts = {
  addin: {
    sources: () => [...filesUnder('addin'), ...filesUnder('shared'), 'docs/addin.md', 'package-lock.json'],
    stamp: 'dist/addin-source-hash',
    /** Pages the server serves; a build without them is not a build, whatever the stamp says. */
    outputs: ['dist/addin/taskpane.html', 'dist/addin/admin.html', 'dist/addin/auth-callback.html'],
    build: async () => {
      const { build } = await import('vite');
      await build({ configFile: inRepo('addin/vite.config.ts'), logLevel: 'error' });
    },
  },
  server: {
    sources: () => [...filesUnder('server'), ...filesUnder('shared'), 'package-lock.json'],
    stamp: 'dist/server-source-hash',
    outputs: ['dist/server/main.mjs'],
    build: async () => {
      const { build } = await import('esbuild');
      rmSync(inRepo('dist/server'), { recursive: true, force: true });
      await build({
        entryPoints: [inRepo('server/main.ts')],
        outdir: inRepo('dist/server'),
        bundle: true,
        splitting: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        sourcemap: true,
        outExtension: { '.js': '.mjs' },
        logLevel: 'warning',
      });
    },
  },
};

/** Builds the named parts (every part when none is named); with `ifChanged`, only those whose sources changed. */
export async function buildParts(names, { ifChanged }) {
  for (const name of names.length > 0 ? names : Object.keys(parts)) {
    const part = parts[name];
    if (!part) throw new Error(`Unknown part "${name}": addin or server`);
    const hash = sourceHash(part.sources());
    const upToDate =
      existsSync(inRepo(part.stamp)) &&
      readFileSync(inRepo(part.stamp), 'utf8').trim() === hash &&
      part.outputs.every((file) => existsSync(inRepo(file)));
    if (ifChanged && upToDate) continue;
    await part.build();
    writeFileSync(inRepo(part.stamp), `${hash}\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const names = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  await buildParts(names, { ifChanged: process.argv.includes('--if-changed') });
}
