import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '../server/paths.js';
import { freePort } from './harness.js';

/**
 * The server in a process of its own (`server/main.ts` as `npm run dev` starts it, without watching) on the
 * PostgreSQL database `databaseUrl`, with the test harness's signing key, so tokens the fixture server signs
 * are good there too. For what only a process of its own shows: whether it stays up, its memory.
 */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it has printed so far, stdout and stderr. */
  output(): string;
  /** Whether the process has ended (crashed, or was stopped). */
  exited(): boolean;
  /** Its resident memory now, and its peak since `resetPeakRss` (bytes; Linux `/proc`). */
  rss(): { now: number; peak: number };
  resetPeakRss(): void;
  close(): Promise<void>;
}

const kB = (status: string, field: string) =>
  Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1]) * 1024;

export async function startServerProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitefile-process-')),
      PORT: String(port),
      PUBLIC_URL: 'http://sitefile.test',
      JWT_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnop',
      JWT_SIGNING_KEY_ID: 'test',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      REDIS_URL: '',
      SITEFILE_DEMO: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited = false;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('admin console')) resolve();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('exit', (code) => {
      exited = true;
      reject(new Error(`the server exited (${code}) before it served:\n${output}`));
    });
  });
  const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited: () => exited,
    rss: () => {
      const text = status();
      return { now: kB(text, 'VmRSS'), peak: kB(text, 'VmHWM') };
    },
    // Linux: writing 5 to clear_refs resets the process's peak resident set size (proc(5)).
    resetPeakRss: () => writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    close: async () => {
      if (exited) return;
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await ended;
    },
  };
}
