import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command } from 'commander';

/** The origin the checked-in manifest.xml points at (local HTTPS development server). */
export const developmentOrigin = 'https://localhost:3000';
const developmentId = '5b0f7a39-1c1e-4c43-9d6a-2f0f6d4c8a51';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A stable add-in Id per deployment origin, so a staging and a production copy can be installed side by side and
 * a re-generated manifest keeps the Id Outlook already knows (UUID shape from a SHA-1 of the origin, as UUIDv5 does).
 */
export function addinIdFor(origin: string): string {
  if (origin === developmentOrigin) return developmentId;
  const hex = createHash('sha1').update(`sitefile-addin:${origin}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Parses `--url`: Outlook loads add-ins over HTTPS only, and the manifest wants a bare origin. */
export function parseDeploymentUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `--url must be an absolute URL such as https://sitefile.example.com (got ${JSON.stringify(value)})`,
    );
  }
  if (url.protocol !== 'https:') throw new Error('--url must use https: Outlook refuses add-ins served over http');
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new Error('--url must be an origin without a path, e.g. https://sitefile.example.com');
  }
  return url.origin;
}

/** The manifest with every URL moved to `origin` and the Id made unique to that origin. */
export function manifestFor(template: string, origin: string): string {
  return template
    .replaceAll(developmentOrigin, origin)
    .replace(`<Id>${developmentId}</Id>`, `<Id>${addinIdFor(origin)}</Id>`);
}

function main(argv: string[]): void {
  const program = new Command()
    .name('manifest')
    .description('Write a copy of manifest.xml for another deployment URL')
    .requiredOption('--url <origin>', 'public HTTPS origin of the Sitefile server, e.g. https://sitefile.example.com')
    .option('--out <file>', 'where to write the manifest', 'dist/manifest.xml')
    .parse(argv);
  const options = program.opts<{ url: string; out: string }>();
  const origin = (() => {
    try {
      return parseDeploymentUrl(options.url);
    } catch (error) {
      return program.error((error as Error).message);
    }
  })();
  const template = readFileSync(path.join(repoRoot, 'manifest.xml'), 'utf8');
  const out = path.resolve(options.out);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, manifestFor(template, origin));
  process.stdout.write(`Wrote ${out} for ${origin}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv);
