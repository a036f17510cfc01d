// Tests that need a program beyond Node.js (Chromium, qpdf, pdftoppm, LibreOffice's soffice, xmllint). `npm test`
// passes with Node.js alone: where a program is not on PATH its tests are skipped, and the file prints one line
// naming it. `.ci/run` installs every such program and sets SITEFILE_REQUIRE_TOOLS=1, under which a missing
// program fails its tests instead — CI never passes by skipping them.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { describe, it, type TestFunction } from 'vitest';

/** The programs tests use, each with the Debian package `.ci/run` installs it from. */
export const systemTools = {
  chromium: 'chromium',
  qpdf: 'qpdf',
  pdftoppm: 'poppler-utils',
  soffice: 'libreoffice-calc-nogui',
  xmllint: 'libxml2-utils',
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

const failureFor = (missing: SystemTool[]) => () => {
  throw new Error(`${missing.join(', ')} not on PATH, and SITEFILE_REQUIRE_TOOLS=1 forbids skipping this test`);
};

/** `it` when every one of `tools` is on PATH; else skipped (or, under SITEFILE_REQUIRE_TOOLS=1, failed). */
export function itNeeds(tools: SystemTool[], name: string, fn: TestFunction, timeout?: number): void {
  const missing = missingOf(tools, name);
  if (missing.length === 0) it(name, fn, timeout);
  else if (required) it(name, failureFor(missing));
  else it.skip(`${name} (skipped: needs ${missing.join(', ')})`, fn);
}

/** `describe` when every one of `tools` is on PATH; else skipped (or, under SITEFILE_REQUIRE_TOOLS=1, failed). */
export function describeNeeds(tools: SystemTool[], name: string, body: () => void): void {
  const missing = missingOf(tools, name);
  if (missing.length === 0) describe(name, body);
  else if (required) describe(name, () => it(`needs ${missing.join(', ')}`, failureFor(missing)));
  else describe.skip(`${name} (skipped: needs ${missing.join(', ')})`, body);
}
