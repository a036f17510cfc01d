import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureFixtureServer, f, server, startInstance } from '../../test/fixture-server.js';
import type { TestServer } from '../../test/harness.js';
import { provider, startProvider } from '../filing/ai-provider.fixtures.js';

const metricsToken = 'scrape-token-0123456789';

configureFixtureServer(async () => ({
  env: {
    AI_BASE_URL: await startProvider(),
    AI_API_KEY: 'sk-test',
    AI_MODEL: 'test-model',
    METRICS_TOKEN: metricsToken,
  },
}));
afterAll(async () => {
  provider.server?.closeAllConnections();
  await new Promise((resolve) => provider.server?.close(resolve));
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The value of the one sample of `name` carrying `labels` (among others), or undefined. */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

async function scrape(url: string, token?: string): Promise<Sample[]> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return parseExposition(await res.text());
}

const suggest = (json: Record<string, unknown>) =>
  server.call('/v1/filing/suggestions', { method: 'POST', token: f.member.token, json });

describe('/metrics behind METRICS_TOKEN on the API port', () => {
  it('refuses a scrape without the token, or with another, in the API error shape', async () => {
    const missing = await server.call('/metrics');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ errorCode: 'unauthorized' });
    const wrong = await server.call('/metrics', { token: 'scrape-token-0123456780' });
    expect(wrong.status).toBe(401);
    expect((await server.call('/metrics', { method: 'POST', token: metricsToken })).status).toBe(405);
  });

  it('counts requests by method, route template and status; filings; suggestions; AI requests by outcome', async () => {
    const projectsPath = `/v1/organization/${f.orgA.id}/project`;
    for (let i = 0; i < 2; i++) expect((await server.call(projectsPath, { token: f.member.token })).status).toBe(200);
    expect((await server.call('/no/such/page')).status).toBe(404);

    const email = {
      subject: 'Pile caps',
      from: 'rita@acme-eng.test',
      to: ['member@harbor.test'],
      internetMessageId: '<metrics-1@acme-eng.test>',
      bodyText: 'See the pile cap sketch.',
    };
    const emailsPath = `/v1/organization/${f.orgA.id}/project/${f.projectA1.id}/emails`;
    const json = { method: 'POST', token: f.member.token, json: email } as const;
    expect((await server.call(emailsPath, json)).status).toBe(201);
    expect((await server.call(emailsPath, json)).status).toBe(200);

    const settings = await server.call(`/v1/admin/organizations/${f.orgA.id}/email-filing-settings`, {
      method: 'PATCH',
      token: f.staff.token,
      json: { aiSuggest: true },
    });
    expect(settings.status).toBe(200);
    // From a sender filed once: local has a candidate, unsure of it, and asks the provider.
    const ferry = { subject: 'Ferry berth lighting', from: { address: 'rita@acme-eng.test' }, bodyPreview: 'Lights.' };
    provider.mode = 'error';
    expect((await suggest(ferry)).body).toMatchObject({ source: 'local' });
    provider.mode = 'reverse';
    expect((await suggest(ferry)).body).toMatchObject({ source: 'local+ai' });

    const samples = await scrape(`${server.url}/metrics`, metricsToken);
    const requests = (route: string, status: string, method = 'GET') =>
      sampleValue(samples, 'sitefile_http_requests_total', { method, route, status });
    expect(requests('/v1/organization/:orgId/project', '200')).toBe(2);
    expect(requests('unmatched', '404')).toBe(1);
    expect(requests('/metrics', '401')).toBe(2);
    expect(requests('/v1/organization/:orgId/project/:projectId/emails', '201', 'POST')).toBe(1);
    expect(
      sampleValue(samples, 'sitefile_http_request_duration_seconds_count', {
        route: '/v1/organization/:orgId/project',
        status: '200',
      }),
    ).toBe(2);
    const slowest = sampleValue(samples, 'sitefile_http_request_duration_seconds_bucket', {
      route: '/v1/organization/:orgId/project',
      le: '+Inf',
    });
    expect(slowest).toBe(2);
    // The scrape itself is the one request in flight.
    expect(sampleValue(samples, 'sitefile_http_requests_in_flight')).toBe(1);
    expect(sampleValue(samples, 'sitefile_filings_total', { result: 'filed' })).toBe(1);
    expect(sampleValue(samples, 'sitefile_filings_total', { result: 'duplicate' })).toBe(1);
    expect(sampleValue(samples, 'sitefile_suggestion_duration_seconds_count', { source: 'local' })).toBe(1);
    expect(sampleValue(samples, 'sitefile_suggestion_duration_seconds_count', { source: 'local+ai' })).toBe(1);
    expect(sampleValue(samples, 'sitefile_ai_requests_total', { outcome: 'http_error' })).toBe(1);
    expect(sampleValue(samples, 'sitefile_ai_requests_total', { outcome: 'reranked' })).toBe(1);
    expect(sampleValue(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('reports the PostgreSQL pool (size, idle, waiting)', async () => {
    const samples = await scrape(`${server.url}/metrics`, metricsToken);
    expect(sampleValue(samples, 'sitefile_db_pool_max')).toBe(10);
    expect(sampleValue(samples, 'sitefile_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'sitefile_db_pool_idle')).toBeLessThanOrEqual(
      sampleValue(samples, 'sitefile_db_pool_connections')!,
    );
    expect(sampleValue(samples, 'sitefile_db_pool_waiting')).toBe(0);
  });
});

describe('/metrics on METRICS_PORT', () => {
  let limited: TestServer;
  beforeAll(async () => {
    // Same database (and signing key) as the first server; one request a minute per caller.
    limited = await startInstance({ env: { METRICS_PORT: '0', RATE_LIMIT_PER_MINUTE: '1' } });
  });

  it('serves the metrics on their own port only, without a token, and counts rate-limit refusals', async () => {
    expect((await limited.call('/metrics')).status).toBe(404);
    const path = `/v1/organization/${f.orgA.id}/project`;
    expect((await limited.call(path, { token: f.admin.token })).status).toBe(200);
    expect((await limited.call(path, { token: f.admin.token })).status).toBe(429);
    const samples = await scrape(limited.metricsUrl!);
    expect(sampleValue(samples, 'sitefile_rate_limit_refusals_total', { bucket: 'api' })).toBe(1);
    expect(
      sampleValue(samples, 'sitefile_http_requests_total', { route: '/v1/organization/:orgId/project', status: '429' }),
    ).toBe(1);
    // Scrapes on this port are not API requests: none in flight, none counted.
    expect(sampleValue(samples, 'sitefile_http_requests_in_flight')).toBe(0);
    expect(sampleValue(samples, 'sitefile_http_requests_total', { route: '/metrics' })).toBe(undefined);
  });
});
