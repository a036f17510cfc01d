import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
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

  it('with --outlook-events adds file on send and shared mailboxes; the copy of the schemas reports only those', () => {
    const events = withOutlookEvents(manifestFor(template, 'https://sitefile.example.com'));
    expect(events).toContain(
      '<LaunchEvent Type="OnMessageSend" FunctionName="onMessageSendHandler" SendMode="PromptUser" />',
    );
    expect(events).toContain('<Runtime resid="Commands.Url" />');
    expect(events).toContain('<SupportsSharedFolders>true</SupportsSharedFolders>');
    expect(events).toContain('<SupportsMultiSelect>true</SupportsMultiSelect>');
    expect(events).toContain(
      '<bt:Url id="Commands.Url" DefaultValue="https://sitefile.example.com/addin/commands.html" />',
    );
    // The vendored copy of the schemas predates these four Mail 1.1 additions. libxml2 stops at the first unexpected element
    // of a sequence, so each is checked alone: each is refused by name, and without the four the copy is valid.
    const additions = {
      Runtimes: /\s*<Runtimes>[\s\S]*?<\/Runtimes>/,
      SupportsSharedFolders: /\s*<SupportsSharedFolders>true<\/SupportsSharedFolders>/,
      LaunchEvent: /\s*<ExtensionPoint xsi:type="LaunchEvent">[\s\S]*?<\/ExtensionPoint>/,
      SupportsMultiSelect: /\s*<SupportsMultiSelect>true<\/SupportsMultiSelect>/,
    };
    const without = (names: string[]) =>
      names.reduce((xml, name) => xml.replace(additions[name as keyof typeof additions], ''), events);
    for (const name of Object.keys(additions)) {
      const reported = violations(without(Object.keys(additions).filter((other) => other !== name)));
      expect(reported.join('\n'), name).toContain(name);
      // All about that element (for LaunchEvent libxml2 adds "The type definition is abstract" on the same line).
      expect(new Set(reported.map((line) => line.split(':')[0])).size, name).toBe(1);
    }
    expect(violations(without(Object.keys(additions)))).toEqual([]);
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

  it('writes the file from the command line', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'manifest-')), 'm.xml');
    execFileSync('npx', ['tsx', 'addin/tools/manifest.ts', '--url', 'https://files.example.com:8443', '--out', out], {
      cwd: repoRoot,
      stdio: 'ignore',
    });
    expect(readFileSync(out, 'utf8')).toContain('https://files.example.com:8443/addin/icon-80.png');
  });
});
