import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../test/harness.js';
import { killHard, startRedis } from '../../test/redis-server.js';
import { describeNeeds } from '../../test/system-tools.js';
import { repoRoot } from '../paths.js';
import { CONFIRM_WITHIN_MS, createRedisBus, type InvalidationBus } from './bus.js';

// This instance's bus and another instance's in a process of its own (bus-process.fixtures.ts), on a Redis of the
// test's own: the other's event loop can be busy when a message comes, or the process stopped or killed.
let redis: ChildProcess;
let redisUrl: string;
let bus: InvalidationBus;
let other: OtherInstance;
let logLines: string[];

interface OtherInstance {
  child: ChildProcess;
  /** When it applied `key` (its Date.now()), once it has. */
  appliedAt(key: string): Promise<number>;
  /** Keeps its event loop busy for `ms`, from when this resolves. */
  busy(ms: number): Promise<void>;
}

async function startOther(): Promise<OtherInstance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cache/bus-process.fixtures.ts', redisUrl], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const printed = (pattern: RegExp) =>
    vi.waitFor(() => output.match(pattern) ?? Promise.reject(new Error(`not printed: ${pattern}`)), {
      timeout: 10_000,
      interval: 10,
    });
  const started: OtherInstance = {
    child,
    appliedAt: async (key) => Number((await printed(new RegExp(`^applied ${key} (\\d+)$`, 'm')))[1]),
    busy: async (ms) => {
      const before = output.length;
      child.stdin!.write(`busy ${ms}\n`);
      await vi.waitFor(() => expect(output.slice(before)).toContain('busy\n'), { timeout: 10_000, interval: 5 });
    },
  };
  // Subscribed once a message reaches it.
  await vi.waitFor(
    async () => {
      await bus.publish('callers', 'probe');
      expect(output).toContain('applied probe ');
    },
    { timeout: 20_000, interval: 100 },
  );
  return started;
}

const took = async (work: () => Promise<void>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

const logged = (text: string) => logLines.filter((line) => line.includes(text)).length;

describeNeeds(['redis-server'], 'the Redis bus: a publish returns once every instance has applied it', () => {
  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    redisUrl = `redis://127.0.0.1:${port}`;
  });
  afterAll(() => redis && killHard(redis));

  beforeEach(async () => {
    logLines = [];
    bus = createRedisBus(redisUrl, pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }));
    // As a server's bus: its own subscriber is one of the receivers.
    bus.subscribe('callers', () => {});
    other = await startOther();
  });
  afterEach(async () => {
    await bus.close();
    await killHard(other.child);
  });

  it('resolves only after the other instance, busy when the message came, has applied it', async () => {
    await other.busy(300);
    await bus.publish('callers', 'user:busy');
    const resolvedAt = Date.now();
    expect(await other.appliedAt('user:busy')).toBeLessThanOrEqual(resolvedAt);
  });

  it(`a stopped instance holds a publish ${CONFIRM_WITHIN_MS} ms at most, logged once; a killed one, not at all`, async () => {
    other.child.kill('SIGSTOP');
    for (const key of ['user:stopped-1', 'user:stopped-2']) {
      const ms = await took(() => bus.publish('callers', key));
      expect(ms).toBeGreaterThanOrEqual(CONFIRM_WITHIN_MS - 20);
      expect(ms).toBeLessThan(CONFIRM_WITHIN_MS + 1000);
    }
    expect(logged('did not confirm an invalidation')).toBe(1);

    other.child.kill('SIGCONT');
    await bus.publish('callers', 'user:continued');
    const resolvedAt = Date.now();
    expect(await other.appliedAt('user:continued')).toBeLessThanOrEqual(resolvedAt);
    expect(logged('every instance confirms invalidations again')).toBe(1);

    await killHard(other.child);
    expect(await took(() => bus.publish('callers', 'user:killed'))).toBeLessThan(CONFIRM_WITHIN_MS);
    expect(logged('did not confirm an invalidation')).toBe(1);
  });
});

describe('the Redis bus with Redis away since it started', () => {
  it('applies a publish here and returns without waiting for confirmations', async () => {
    const lines: string[] = [];
    const alone = createRedisBus(
      `redis://127.0.0.1:${await freePort()}`,
      pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    );
    const applied: string[] = [];
    alone.subscribe('callers', (key) => applied.push(key));
    await vi.waitFor(() => expect(lines.join('')).toContain('Redis unavailable'));
    expect(await took(() => alone.publish('callers', 'user:alone'))).toBeLessThan(CONFIRM_WITHIN_MS);
    expect(applied).toEqual(['user:alone']);
    await alone.close();
  });
});
