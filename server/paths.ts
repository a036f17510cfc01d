import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder at or above `dir` that holds a package.json. */
function packageRootAbove(dir: string): string {
  let current = dir;
  while (!existsSync(path.join(current, 'package.json'))) {
    const parent = path.dirname(current);
    if (parent === current) throw new Error(`No package.json above ${dir}`);
    current = parent;
  }
  return current;
}

/**
 * The repository's root, found from this module's own location: the same code runs from `server/` (tsx,
 * vitest, the CLI) and from the start bundle in `dist/server/` (`npm start`), where every module shares one
 * `import.meta.url`.
 */
export const repoRoot = packageRootAbove(path.dirname(fileURLToPath(import.meta.url)));
