// One test server with the standard fixtures (`createFixtures`) for each test file that imports this: vitest
// evaluates the module once per file, so importing it registers the hooks that start the server before the
// file's tests and close it after them. The bindings below are live: read them inside tests and hooks.
import { afterAll, beforeAll } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from './harness.js';

export let server: TestServer;
export let f: Fixtures;

beforeAll(async () => {
  server = await startTestServer();
  f = await createFixtures(server);
});
afterAll(async () => {
  await server?.close();
});

/** The context `describeAuthMatrix` asks for. */
export const ctx = () => ({ server, fixtures: f });
