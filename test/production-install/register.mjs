// `node --import ./test/production-install/register.mjs …`: the process cannot import a development package, as
// after `npm ci --omit=dev` (the lockfile's `"dev": true` entries). ES module imports only: Node 20's hooks do
// not see `require`, and the server bundle imports its packages as modules.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));
const devOnly = Object.entries(lock.packages)
  .filter(([key, entry]) => key.startsWith('node_modules/') && entry.dev)
  // The folder, not the bare name: a development package's nested copy (spectral's ajv-formats 2) must not block
  // the top-level package of that name that a production package uses (the MCP SDK's ajv-formats 3).
  .map(([key]) => key);
// Only this repository's packages: npm's own (under its installation) are not the install's.
const packages = new URL('../../node_modules/', import.meta.url).href;
register('./hooks.mjs', import.meta.url, { data: { devOnly, packages } });
