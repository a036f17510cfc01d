// One test server with the standard fixtures (`createFixtures`) for each test file that imports this: vitest
// evaluates the module once per file, so importing it registers the hooks that start the server before the
// file's tests and close it after them (a file's own beforeAll hooks run after this one, its afterAll hooks
// before). The bindings below are live: read them inside tests and hooks.
import { afterAll, beforeAll } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer, type TestServerOptions } from './harness.js';

export let server: TestServer;
export let f: Fixtures;

type Settings = TestServerOptions | (() => Promise<TestServerOptions>);
let settings: Settings = {};

/**
 * This file's server with other settings (env, clock), or a function that makes them when the server starts
 * (after a service it needs is up): call it at the top of the file, before any hook runs.
 */
export function configureFixtureServer(given: Settings): void {
  settings = given;
}

const instances: TestServer[] = [];

/**
 * Another instance over this file's database, as a second replica shares one: for tests of what instances
 * share (caches, signatures, limits). It closes with the file's server unless a test closed it first.
 */
export async function startInstance(options: Omit<TestServerOptions, 'database'> = {}): Promise<TestServer> {
  const started = await startTestServer({ ...options, database: server.database });
  let closing: Promise<void> | undefined;
  const instance = { ...started, close: () => (closing ??= started.close()) };
  instances.push(instance);
  return instance;
}

beforeAll(async () => {
  server = await startTestServer(typeof settings === 'function' ? await settings() : settings);
  f = await createFixtures(server);
});
afterAll(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
  await server?.close();
});

/** The context `describeAuthMatrix` asks for. */
export const ctx = () => ({ server, fixtures: f });
