// Builds what `npm start` serves and runs, each part only when its sources changed (`--if-changed`):
// - addin: the Outlook add-in and admin console (Vite) into dist/addin (~6 s);
// - server: server/main.ts and what it imports from server/ and shared/, bundled by esbuild into dist/server
//   (one ES module per lazily imported part, packages left as imports). Starting from the bundle skips the
//   TypeScript loader's per-module round trips, about half of a start (docs/performance.md, "Start-up").
//   The same sources run under tsx (CLI) and vitest (tests); esbuild only strips types and joins modules.
// Each part records a SHA-256 of the files its build reads (paths and contents, ~50 ms) beside its output.
// Plain JavaScript, so it starts without the TypeScript loader. `npm run build` runs it; `npm start` (tools/start.mjs)
// builds only what a production install can: the server bundle when its sources changed (esbuild is a runtime
// dependency, under a second), the add-in only when there is none (Vite is a development package).
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
    label: 'the Outlook add-in (Vite; up to two minutes on a small machine)',
    /** Vite is a development package: a production install (`npm ci --omit=dev`) serves the build it has. */
    onStart: 'ifMissing',
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
    label: 'the server bundle (esbuild)',
    onStart: 'ifChanged',
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

const isBuilt = (part) => part.outputs.every((file) => existsSync(inRepo(file)));

const isCurrent = (part, hash) =>
  existsSync(inRepo(part.stamp)) && readFileSync(inRepo(part.stamp), 'utf8').trim() === hash && isBuilt(part);

async function buildPart(name, part, hash, log) {
  const started = Date.now();
  log(`Building ${part.label}…`);
  await part.build();
  writeFileSync(inRepo(part.stamp), `${hash}\n`);
  log(`Built ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/** Builds the named parts (every part when none is named); with `ifChanged`, only those whose sources changed. */
export async function buildParts(names, { ifChanged, log = () => {} }) {
  for (const name of names.length > 0 ? names : Object.keys(parts)) {
    const part = parts[name];
    if (!part) throw new Error(`Unknown part "${name}": addin or server`);
    const hash = sourceHash(part.sources());
    if (!(ifChanged && isCurrent(part, hash))) await buildPart(name, part, hash, log);
  }
}

/**
 * What `npm start` builds: each part by its `onStart` rule. A part that is built but older than its sources and
 * that start does not rebuild is named on stderr; a missing one is built, or, without its builder (a production
 * install), start stops and says to run `npm run build` where the development packages are.
 */
export async function buildForStart(log) {
  for (const [name, part] of Object.entries(parts)) {
    const hash = sourceHash(part.sources());
    if (isCurrent(part, hash)) continue;
    if (part.onStart === 'ifMissing' && isBuilt(part)) {
      log(`Note: ${name} sources changed since dist/ was built; serving that build (\`npm run build\` rebuilds it).`);
      continue;
    }
    try {
      await buildPart(name, part, hash, log);
    } catch (error) {
      if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
      throw new Error(
        `dist/ has no build of ${name} and its builder is not installed (a production install?): ` +
          `run \`npm run build\` with the development packages installed, then start. (${error.message})`,
      );
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const names = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const log = (line) => process.stderr.write(`${line}\n`);
  await buildParts(names, { ifChanged: process.argv.includes('--if-changed'), log });
}
