import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';
import { describe, expect, it } from 'vitest';
import { itNeeds } from '../../test/system-tools.js';
import {
  addinIdFor,
  developmentOrigin,
  manifestFor,
  parseDeploymentUrl,
  repoRoot,
  withOutlookEvents,
} from './manifest.js';

// Microsoft's schemas, vendored with their licence note (office-schemas/README.md).
const schemaDir = path.join(repoRoot, 'addin/tools/office-schemas');
const rootSchema = path.join(schemaDir, 'OfficeAppManifestV1_1.xsd');
const template = readFileSync(path.join(repoRoot, 'manifest.xml'), 'utf8');

xmlRegisterFsInputProviders();

/** Validates with libxml2 (WASM) against Microsoft's XSDs; returns the violations (empty when valid). */
function violations(xml: string): string[] {
  // The schema's imports resolve relative to its own location, so parse it with its file path as the URL.
  using schemaDoc = XmlDocument.fromString(readFileSync(rootSchema, 'utf8'), { url: rootSchema });
  using validator = XsdValidator.fromDoc(schemaDoc);
  using doc = XmlDocument.fromString(xml);
  try {
    validator.validate(doc);
    return [];
  } catch (error) {
    const details = (error as { details?: { message: string; line?: number }[] }).details ?? [];
    return details.length ? details.map((d) => `line ${d.line}: ${d.message.trim()}`) : [String(error)];
  }
}

describe('manifest.xml', () => {
  it('validates against the Office add-in manifest schemas', () => {
    expect(violations(template)).toEqual([]);
  });

  it('is rejected by the same check when it breaks the schema', () => {
    const broken = template.replace(
      '<Permissions>ReadWriteMailbox</Permissions>',
      '<Permissions>Everything</Permissions>',
    );
    expect(violations(broken).join('\n')).toMatch(/Permissions/);
  });

  it('declares a mail add-in with the permission categories need, Mailbox 1.8 and a File to project button on read and compose', () => {
    expect(template).toContain('xsi:type="MailApp"');
    expect(template).toContain('<Permissions>ReadWriteMailbox</Permissions>');
    expect(template).toContain('<Set Name="Mailbox" MinVersion="1.8" />');
    expect(template).toContain('xsi:type="VersionOverridesV1_1"');
    expect(template).toContain('xsi:type="MessageReadCommandSurface"');
    expect(template).toContain('xsi:type="MessageComposeCommandSurface"');
    expect(template).toContain('DefaultValue="File to project"');
  });

  it('points only at HTTPS URLs of our server, and every icon it names exists in addin/public', () => {
    const ours = [...template.matchAll(/(?:DefaultValue="|<AppDomain>)(\w+:\/\/[^"<]+)/g)].map((m) => m[1]!);
    expect(ours.length).toBeGreaterThan(5);
    for (const url of ours)
      expect(url.startsWith(`${developmentOrigin}/`) || url === developmentOrigin, url).toBe(true);
    const icons = ours
      .filter((url) => url.endsWith('.png'))
      .map((url) => url.replace(`${developmentOrigin}/addin/`, ''));
    for (const icon of icons) expect(existsSync(path.join(repoRoot, 'addin/public', icon)), icon).toBe(true);
  });

  itNeeds(['xmllint'], 'validates with xmllint too', () => {
    const output = execFileSync('xmllint', ['--noout', '--schema', rootSchema, path.join(repoRoot, 'manifest.xml')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(output).toBe('');
  });
});

/** Every manifest `npm run manifest` can write: each kind of origin, with and without --outlook-events. */
const variants = ['https://sitefile.example.com', 'http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:3000']
  .map((url) => parseDeploymentUrl(url))
  .flatMap((origin) => [
    { name: origin, xml: manifestFor(template, origin) },
    { name: `${origin} --outlook-events`, xml: withOutlookEvents(manifestFor(template, origin)) },
  ]);

describe('every manifest variant', () => {
  it('validates against the vendored schemas (libxml2)', () => {
    for (const variant of variants) expect(violations(variant.xml), variant.name).toEqual([]);
  });

  itNeeds(['xmllint'], 'validates with xmllint too', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'manifests-'));
    for (const [i, variant] of variants.entries()) {
      const file = path.join(dir, `${i}.xml`);
      writeFileSync(file, variant.xml);
      const result = spawnSync('xmllint', ['--noout', '--schema', rootSchema, file], { encoding: 'utf8' });
      expect(result.status, `${variant.name}: ${result.stderr}`).toBe(0);
    }
  });

  it('declares shared and delegate mailboxes and several selected messages in manifest.xml itself', () => {
    expect(template).toContain('<SupportsSharedFolders>true</SupportsSharedFolders>');
    expect(template).toContain('<SupportsMultiSelect>true</SupportsMultiSelect>');
    expect(template).not.toContain('xsi:type="LaunchEvent"');
  });
});

describe('npm run manifest', () => {
  it('rewrites every URL to the deployment origin with a stable Id of its own, and still validates', () => {
    const copy = manifestFor(template, 'https://sitefile.example.com');
    expect(copy).not.toContain(developmentOrigin);
    expect(copy).toContain('<SourceLocation DefaultValue="https://sitefile.example.com/addin/taskpane.html" />');
    expect(copy).toContain(`<Id>${addinIdFor('https://sitefile.example.com')}</Id>`);
    expect(addinIdFor('https://sitefile.example.com')).toBe(addinIdFor('https://sitefile.example.com'));
    expect(addinIdFor('https://sitefile.example.com')).not.toBe(addinIdFor('https://staging.example.com'));
    expect(violations(copy)).toEqual([]);
  });

  it('with --outlook-events adds file on send, and validates', () => {
    const events = withOutlookEvents(manifestFor(template, 'https://sitefile.example.com'));
    expect(events).toContain(
      '<LaunchEvent Type="OnMessageSend" FunctionName="onMessageSendHandler" SendMode="PromptUser" />',
    );
    expect(events).toContain('<Runtime resid="Commands.Url" />');
    expect(events).toContain(
      '<bt:Url id="Commands.Url" DefaultValue="https://sitefile.example.com/addin/commands.html" />',
    );
    expect(violations(events)).toEqual([]);
    // The schema still refuses what Outlook would: an unknown send mode.
    expect(violations(events.replace('SendMode="PromptUser"', 'SendMode="Maybe"')).join('\n')).toMatch(/SendMode/);
  });

  it('refuses URLs Outlook would not load', () => {
    expect(() => parseDeploymentUrl('http://sitefile.example.com')).toThrow(/https/);
    expect(() => parseDeploymentUrl('https://sitefile.example.com/app')).toThrow(/origin/);
    expect(() => parseDeploymentUrl('not a url')).toThrow(/absolute URL/);
    expect(parseDeploymentUrl('https://sitefile.example.com/')).toBe('https://sitefile.example.com');
    // Development: http on the loopback interface only.
    expect(parseDeploymentUrl('http://localhost:3000')).toBe('http://localhost:3000');
    expect(parseDeploymentUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(parseDeploymentUrl('http://[::1]:3000')).toBe('http://[::1]:3000');
    expect(() => parseDeploymentUrl('http://10.0.0.5:3000')).toThrow(/https/);
    expect(() => parseDeploymentUrl('http://localhost.example.com')).toThrow(/https/);
  });

  it('takes PUBLIC_URL when no --url is given: http on loopback for development, validated', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'manifest-')), 'dev.xml');
    execFileSync('npx', ['tsx', 'addin/tools/manifest.ts', '--outlook-events', '--out', out], {
      cwd: repoRoot,
      stdio: 'ignore',
      env: { ...process.env, PUBLIC_URL: 'http://localhost:3000' },
    });
    const written = readFileSync(out, 'utf8');
    expect(written).toContain('<SourceLocation DefaultValue="http://localhost:3000/addin/taskpane.html" />');
    expect(violations(written)).toEqual([]);
  });

  it('writes the file from the command line', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'manifest-')), 'm.xml');
    execFileSync('npx', ['tsx', 'addin/tools/manifest.ts', '--url', 'https://files.example.com:8443', '--out', out], {
      cwd: repoRoot,
      stdio: 'ignore',
    });
    expect(readFileSync(out, 'utf8')).toContain('https://files.example.com:8443/addin/icon-80.png');
  });
});
