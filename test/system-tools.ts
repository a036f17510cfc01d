// Tests that need a program beyond Node.js (Chromium, qpdf, pdftoppm, LibreOffice's soffice, xmllint,
// redis-server) or the shared test Redis. `npm test` passes with Node.js alone: where a program is not on PATH (or
// no Redis answers) its tests are skipped, and the file prints one line naming it. `.ci/run` installs every such
// program, starts Redis and sets SITEFILE_REQUIRE_TOOLS=1, under which a missing one fails its tests instead — CI
// never passes by skipping them.
import { accessSync, constants } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { describe, it, type TestFunction } from 'vitest';
import { testRedisUrl } from './harness.js';

/** The programs tests use, each with the Debian package `.ci/run` installs it from. */
export const systemTools = {
  chromium: 'chromium',
  qpdf: 'qpdf',
  pdftoppm: 'poppler-utils',
  soffice: 'libreoffice-calc-nogui',
  xmllint: 'libxml2-utils',
  'redis-server': 'redis-server',
} as const;
export type SystemTool = keyof typeof systemTools;

/** The program's path on PATH, or undefined. */
export function findTool(tool: SystemTool, pathVariable = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathVariable.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, tool);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

const required = process.env.SITEFILE_REQUIRE_TOOLS === '1';

/** Of `tools`, those not on PATH; when some are (and skipping is allowed), one line names them. */
function missingOf(tools: SystemTool[], testName: string): SystemTool[] {
  const missing = tools.filter((tool) => !findTool(tool));
  if (missing.length > 0 && !required) {
    const packages = missing.map((tool) => systemTools[tool]).join(' ');
    process.stderr.write(`skipped "${testName}": ${missing.join(', ')} not on PATH (Debian: ${packages})\n`);
  }
  return missing;
}

const failureFor = (why: string) => () => {
  throw new Error(`${why}, and SITEFILE_REQUIRE_TOOLS=1 forbids skipping this test`);
};

/** `it` when every one of `tools` is on PATH; else skipped (or, under SITEFILE_REQUIRE_TOOLS=1, failed). */
export function itNeeds(tools: SystemTool[], name: string, fn: TestFunction, timeout?: number): void {
  const missing = missingOf(tools, name);
  if (missing.length === 0) it(name, fn, timeout);
  else if (required) it(name, failureFor(`${missing.join(', ')} not on PATH`));
  else it.skip(`${name} (skipped: needs ${missing.join(', ')})`, fn);
}

/** `describe` when every one of `tools` is on PATH; else skipped (or, under SITEFILE_REQUIRE_TOOLS=1, failed). */
export function describeNeeds(tools: SystemTool[], name: string, body: () => void): void {
  const missing = missingOf(tools, name);
  if (missing.length === 0) describe(name, body);
  else if (required)
    describe(name, () => it(`needs ${missing.join(', ')}`, failureFor(`${missing.join(', ')} not on PATH`)));
  else describe.skip(`${name} (skipped: needs ${missing.join(', ')})`, body);
}

/** Whether something accepts connections at the shared test Redis's address (CI starts one there). */
function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379), timeout: 1000 });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

const sharedRedisUp = await accepts(testRedisUrl);

/** `describe` when the shared test Redis (TEST_REDIS_URL, default 127.0.0.1:6379) answers; else skipped with one
 *  line (or, under SITEFILE_REQUIRE_TOOLS=1, failed). */
export function describeWithRedis(name: string, body: () => void): void {
  const why = `no Redis at ${testRedisUrl} (TEST_REDIS_URL)`;
  if (sharedRedisUp) describe(name, body);
  else if (required) describe(name, () => it('needs the shared test Redis', failureFor(why)));
  else {
    process.stderr.write(`skipped "${name}": ${why}\n`);
    describe.skip(`${name} (skipped: ${why})`, body);
  }
}
