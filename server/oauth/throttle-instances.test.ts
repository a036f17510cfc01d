import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { startTwoInstances, type TwoInstances } from '../../test/two-instances.js';
import { ManualClock } from '../clock.js';
import { createUser } from '../users/service.js';
import { addinSignInPath, createBrowser } from './browser.fixtures.js';
import { ACCOUNT_CEILING, PAIR_FREE_FAILURES, SIGN_IN_MAX_WAIT_SECONDS, SIGN_IN_QUIET_SECONDS } from './throttle.js';

// Issue 36: the sign-in throttle lived in each instance's memory and forgot an address's failures as its longest
// wait ended, so one address got about 28 guesses an hour per instance and a restart forgot the owner's addresses.
// Two instances sharing a database (and a Redis of their own), one clock; then a restart.

const clock = new ManualClock('2026-11-28T08:00:00.000Z');
const PASSWORD = 'owner-pass-1';
let pair: TwoInstances;
let accounts = 0;

const newAccount = async () => {
  accounts += 1;
  const email = `owner-${accounts}@harbor.test`;
  await createUser(pair.database.db, { email, name: `Owner ${accounts}`, password: PASSWORD });
  return email;
};

/** The add-in's sign-in from `from`: 302 back to the add-in when let in, 401 for a wrong password, 429 when held. */
const attempt = async (server: TestServer, from: string, email: string, password: string) => {
  const browser = createBrowser(server, { from });
  const form = await browser.get(`${server.config.publicUrl}${addinSignInPath(server)}`);
  return browser.post(form, { email, password });
};

beforeAll(async () => {
  pair = await startTwoInstances({ clock });
}, 60_000);

afterAll(async () => {
  await pair?.close();
});

describe('the sign-in throttle, on two instances', () => {
  it('gives attempts sent at once, on both instances, as a wait ends one turn between them', async () => {
    const { a, b } = pair;
    const email = await newAccount();
    const guesser = '198.51.100.70';
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) expect((await attempt(a, guesser, email, 'guess')).status).toBe(401);
    clock.advance(1000);
    const servers = [a, b, a, b, a, b, a, b];
    const browsers = servers.map((server) => createBrowser(server, { from: guesser }));
    const forms = await Promise.all(
      browsers.map((browser, i) => browser.get(`${a.config.publicUrl}${addinSignInPath(servers[i]!)}`)),
    );
    const answers = await Promise.all(browsers.map((browser, i) => browser.post(forms[i]!, { email, password: 'x' })));
    expect(answers.map((res) => res.status).sort()).toEqual([401, 429, 429, 429, 429, 429, 429, 429]);
  }, 60_000);

  it('holds a guessing address on the other instance and after a restart; the owner at home is let in', async () => {
    const { a, b } = pair;
    const email = await newAccount();
    const home = '203.0.113.50';
    const guesser = '198.51.100.50';
    expect((await attempt(a, home, email, PASSWORD)).status).toBe(302);

    for (let i = 0; i < PAIR_FREE_FAILURES; i++) expect((await attempt(a, guesser, email, 'guess')).status).toBe(401);
    const heldOnB = await attempt(b, guesser, email, PASSWORD);
    expect(heldOnB.status).toBe(429);
    expect(heldOnB.headers.get('retry-after')).toBe('1');
    expect(heldOnB.html).toContain('Too many sign-in attempts. Try again in 1 second.');
    clock.advance(1000);
    expect((await attempt(b, guesser, email, 'guess')).status).toBe(401);
    expect((await attempt(a, guesser, email, PASSWORD)).headers.get('retry-after')).toBe('2');

    // Strangers spread their guesses over both instances, past the account's ceiling: a new address waits; the
    // address the owner signed in from on A is let in on B.
    let accountFailures = PAIR_FREE_FAILURES + 1;
    for (let stranger = 1; accountFailures < ACCOUNT_CEILING; stranger++) {
      for (let i = 0; i < PAIR_FREE_FAILURES && accountFailures < ACCOUNT_CEILING; i++, accountFailures++) {
        const res = await attempt(i % 2 ? a : b, `192.0.2.${stranger}`, email, 'guess');
        expect(res.status).toBe(401);
      }
    }
    expect((await attempt(b, '203.0.113.51', email, PASSWORD)).status).toBe(429);
    expect((await attempt(b, home, email, PASSWORD)).status).toBe(302);

    // Both instances stop; one starts again on the same database.
    await a.close();
    await b.close();
    const restarted = await startTestServer({ database: pair.database, clock });
    try {
      expect((await attempt(restarted, guesser, email, PASSWORD)).status).toBe(429);
      expect((await attempt(restarted, '203.0.113.51', email, PASSWORD)).status).toBe(429);
      expect((await attempt(restarted, home, email, PASSWORD)).status).toBe(302);
    } finally {
      await restarted.close();
    }
  }, 180_000);
});

describe('the sign-in throttle, over hours', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: pair.database, clock });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gives an address that waits out every wait one guess an hour, until it has been quiet for a day', async () => {
    const email = await newAccount();
    const guesser = '198.51.100.60';
    const start = clock.now().getTime();
    const hour = 60 * 60 * 1000;
    const guessesAfter: number[] = [];
    // Six hours, or 25 guesses (the old throttle let through about 28 an hour; this one 22 in six hours).
    while (guessesAfter.length < 25 && (guessesAfter.at(-1) ?? 0) < 6 * hour) {
      const res = await attempt(server, guesser, email, 'guess');
      if (res.status === 429) {
        clock.advance(Number(res.headers.get('retry-after')) * 1000);
        continue;
      }
      expect(res.status).toBe(401);
      guessesAfter.push(clock.now().getTime() - start);
    }
    // The waits double up to an hour and stay there: from the second hour on, about one guess an hour.
    expect(guessesAfter.length).toBeLessThan(25);
    expect(guessesAfter.filter((at) => at >= 2 * hour).length).toBeLessThanOrEqual(5);
    const held = await attempt(server, guesser, email, PASSWORD);
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe(String(SIGN_IN_MAX_WAIT_SECONDS));
    expect(held.html).toContain('Try again in 60 minutes.');
    // A quiet day forgets the failures.
    clock.advance(SIGN_IN_QUIET_SECONDS * 1000);
    expect((await attempt(server, guesser, email, PASSWORD)).status).toBe(302);
  }, 300_000);
});
