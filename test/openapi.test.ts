import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../server/routes.js';
import { server } from './fixture-server.js';

const run = promisify(execFile);
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked generically
let doc: any;

interface Operation {
  parameters?: { name: string; description?: string }[];
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

beforeAll(async () => {
  doc = (await server.call('/v1/openapi.json')).body;
}, 60_000);

describe('OpenAPI document', () => {
  it('lints with zero errors (Redocly recommended-strict rules)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const bin = path.resolve('node_modules/.bin/redocly');
    const result = await run(bin, ['lint', file, '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((err: { stdout: string; stderr: string }) => err);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{')));
    const errors = report.problems.filter((p: { severity: string }) => p.severity === 'error');
    expect(
      errors.map((e: { message: string; location: unknown }) => `${e.message} ${JSON.stringify(e.location)}`),
    ).toEqual([]);
  });

  // Spectral's own mistake, the only problem it reports: its example check compiles `pattern` without the `u` flag
  // JSON Schema asks for, so `\p{L}` (any letter) matches only the text "p{L}" and every valid example of a
  // reference number is "invalid" (the same example passes ajv's unicode patterns and the check in the harness).
  const spectralMistakes = new Set(['oas3-valid-media-example referenceNumbers.0.value']);

  it("reports nothing in Spectral's spectral:oas rules but its own mistake", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
    const bin = path.resolve('node_modules/.bin/spectral');
    const result = await run(bin, ['lint', file, '--ruleset', path.join(dir, '.spectral.yaml'), '--format=json'], {
      cwd: dir,
    }).catch((err: { stdout: string }) => err);
    const problems: { code: string; path: string[]; message: string; severity: number }[] = JSON.parse(
      result.stdout.slice(result.stdout.indexOf('[')),
    );
    const reported = problems
      .map((p) => ({ ...p, key: `${p.code} ${p.path.slice(-3).join('.')}` }))
      .filter((p) => !(p.severity === 0 && spectralMistakes.has(p.key)));
    expect(reported.map((p) => `${p.code} ${p.path.join('.')}: ${p.message}`)).toEqual([]);
    // The mistake still shows (a Spectral that fixes it would let the exception go).
    expect(problems.length).toBeGreaterThan(0);
  }, 60_000);

  it('documents every route with its access rule and error responses', () => {
    for (const route of allRoutes()) {
      const operation = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.operationId);
      if (route.access.kind === 'public') continue;
      expect(operation.security).toEqual([{ bearer: [] }]);
      expect(operation.responses).toHaveProperty('401');
      // Any signed-in caller may use an `authenticated` route; a 403 there is one the route declares.
      if (route.access.kind !== 'authenticated') expect(operation.responses).toHaveProperty('403');
      if (route.access.kind === 'permission') expect(operation['x-permission']).toBe(route.access.permission);
      if (route.access.kind === 'staff') expect(operation['x-permission']).toBe('staff');
      if (route.access.kind === 'orgAdmin') expect(operation['x-permission']).toBe('org-admin');
      if (route.access.kind === 'clientKey') expect(operation['x-permission']).toBe('client-key');
      if (route.access.kind === 'ownerOrOrgAdmin') {
        expect(operation['x-permission']).toBe('owner-or-org-admin');
        expect(operation.responses).toHaveProperty('404');
      }
    }
  });

  it('describes every parameter and gives every JSON success answer an example', () => {
    let parameters = 0;
    let examples = 0;
    for (const [path, item] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const parameter of operation.parameters ?? []) {
          expect(parameter.description, `${method} ${path} ${parameter.name}`).toMatch(/\w/);
          parameters++;
        }
        for (const [status, response] of Object.entries(operation.responses)) {
          const json = response.content?.['application/json'];
          if (!status.startsWith('2') || !json) continue;
          expect(json.example, `${method} ${path} ${status}`).toBeDefined();
          examples++;
        }
      }
    }
    expect(parameters).toBeGreaterThan(150);
    expect(examples).toBeGreaterThan(45);
  });

  it('declares the CSV form of a list beside its JSON page, not as a second media type of it', () => {
    const csvLists = allRoutes().filter((route) => Object.values(route.responses).some((r) => r.csv));
    expect(csvLists.length).toBeGreaterThanOrEqual(5);
    for (const route of csvLists) {
      const ok = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')][route.method].responses['200'];
      expect(Object.keys(ok.content), route.path).toEqual(['application/json']);
      expect(ok['x-csv'], route.path).toMatchObject({ mediaType: 'text/csv', request: 'Accept: text/csv' });
    }
  });

  it("states every list's JSON page size as at most 50, and the ping body as optional", () => {
    const limits: [string, unknown][] = [];
    for (const [path, operations] of Object.entries<
      Record<string, { parameters?: { name: string; schema: unknown }[] }>
    >(doc.paths)) {
      for (const operation of Object.values(operations)) {
        const limit = operation.parameters?.find((p) => p.name === 'limit');
        if (limit) limits.push([path, limit.schema]);
      }
    }
    expect(limits.length).toBeGreaterThanOrEqual(15);
    for (const [path, schema] of limits) expect(schema, path).toMatchObject({ maximum: 50 });
    const csvList = limits.find(([path]) => path === '/v1/admin/documents')!;
    expect(csvList[1]).toMatchObject({ maximum: 50, default: 25 });
    expect(doc.paths['/v1/commands/ping/{entityId}'].post.requestBody.required).toBe(false);
  });
});
