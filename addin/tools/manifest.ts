import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { onSendFunctionName } from '../commands/names.js';

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

/** Hosts a developer's own machine answers on: http is accepted there (npm run dev, PUBLIC_URL=http://localhost…). */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Parses `--url`: Outlook loads add-ins over HTTPS only (http on loopback for development), and the manifest
 *  wants a bare origin. */
export function parseDeploymentUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `--url must be an absolute URL such as https://sitefile.example.com (got ${JSON.stringify(value)})`,
    );
  }
  const loopbackHttp = url.protocol === 'http:' && loopbackHosts.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw new Error('--url must use https (http only on localhost): Outlook refuses add-ins served over http');
  }
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

/**
 * File on send: event-based activation, a browser runtime for commands.html and a LaunchEvent OnMessageSend
 * (SendMode PromptUser, Mailbox 1.12). Not in the checked-in manifest.xml: classic Outlook for Windows runs event
 * handlers only from a JavaScript-only file (the Runtime's Override), which is not built, and with the event every
 * send waits for Sitefile — a deployment chooses it with `--outlook-events`. Shared mailboxes and multi-select are in
 * manifest.xml itself.
 */
export function withOutlookEvents(manifest: string): string {
  const runtimes = `
          <Runtimes>
            <Runtime resid="Commands.Url" />
          </Runtimes>`;
  const launchEvent = `
            <ExtensionPoint xsi:type="LaunchEvent">
              <LaunchEvents>
                <LaunchEvent Type="OnMessageSend" FunctionName="${onSendFunctionName}" SendMode="PromptUser" />
              </LaunchEvents>
              <SourceLocation resid="Commands.Url" />
            </ExtensionPoint>`;
  return manifest
    .replace('<Host xsi:type="MailHost">', `<Host xsi:type="MailHost">${runtimes}`)
    .replace(/(\n\s*<\/DesktopFormFactor>)/, `${launchEvent}$1`)
    .replace(
      /(<bt:Url id="Taskpane.Url" DefaultValue="([^"]+)\/addin\/taskpane.html" \/>)/,
      '$1\n          <bt:Url id="Commands.Url" DefaultValue="$2/addin/commands.html" />',
    );
}

function main(argv: string[]): void {
  const program = new Command()
    .name('manifest')
    .description('Write a copy of manifest.xml for another deployment URL')
    .option(
      '--url <origin>',
      'public HTTPS origin of the Sitefile server, e.g. https://sitefile.example.com (default: PUBLIC_URL)',
      process.env.PUBLIC_URL,
    )
    .option('--out <file>', 'where to write the manifest', 'dist/manifest.xml')
    .option('--outlook-events', 'add file on send (OnMessageSend, Mailbox 1.12)')
    .parse(argv);
  const options = program.opts<{ url?: string; out: string; outlookEvents?: boolean }>();
  const url = options.url ?? program.error('Give --url https://your.host (or set PUBLIC_URL)');
  const origin = (() => {
    try {
      return parseDeploymentUrl(url);
    } catch (error) {
      return program.error((error as Error).message);
    }
  })();
  const template = readFileSync(path.join(repoRoot, 'manifest.xml'), 'utf8');
  const out = path.resolve(options.out);
  mkdirSync(path.dirname(out), { recursive: true });
  const manifest = manifestFor(template, origin);
  writeFileSync(out, options.outlookEvents ? withOutlookEvents(manifest) : manifest);
  process.stdout.write(`Wrote ${out} for ${origin}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv);
