// `npm start` until /readyz answers 200, with data already there (the case people meet every day), beside a
// bare Node process that listens and answers (the floor of any start on this machine at this moment).
//
//   npx tsx bench/startup.ts [--runs 5] [--data-dir DIR] [--database-url URL]
//
// Without --data-dir a fresh directory is made; its first start seeds the demo data and is reported apart.
// With --database-url the server uses that PostgreSQL database instead of the embedded PostgreSQL.
// Each start is a new process group, stopped with SIGTERM once ready. On a shared machine read the ratio to
// the bare process started in the same moments, not only the milliseconds.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { median } from './measure.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
  },
});
const runs = Number(values.runs);
const dataDir = values['data-dir'] ?? mkdtempSync(path.join(tmpdir(), 'sitefile-startup-'));
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function untilReady(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before ${url} answered`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Start {
  ms: number;
  output: string;
}

/** Runs `command` in its own process group until `readyPath` answers 200, then stops the group. */
async function timeStart(command: string, args: string[], readyPath: string): Promise<Start> {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: values['database-url'] ?? '',
  };
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    await untilReady(`http://127.0.0.1:${port}${readyPath}`, child);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${output}`);
  }
  const ms = performance.now() - t0;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-(child.pid as number), 'SIGTERM');
  await exited;
  return { ms, output };
}

const floor = () =>
  timeStart(
    process.execPath,
    ['-e', "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT))"],
    '/',
  );
const npmStart = () => timeStart('npm', ['start', '--silent'], '/readyz');

const lines = [
  `data: ${values['database-url'] ? 'PostgreSQL' : `embedded PostgreSQL in ${dataDir}`}; ${runs} starts each`,
];
const first = await npmStart();
lines.push(
  `first start (builds the add-in if its sources changed; seeds when the database is empty): ${first.ms.toFixed(0)} ms`,
);
const starts: number[] = [];
const floors: number[] = [];
let lastOutput = '';
for (let i = 0; i < runs; i++) {
  floors.push((await floor()).ms);
  const start = await npmStart();
  starts.push(start.ms);
  lastOutput = start.output;
  console.error(`run ${i + 1}: npm start ${start.ms.toFixed(0)} ms, bare node ${floors.at(-1)?.toFixed(0)} ms`);
}
lines.push(
  `npm start → /readyz 200, data present: median ${median(starts).toFixed(0)} ms (min ${Math.min(...starts).toFixed(0)}, max ${Math.max(...starts).toFixed(0)})`,
  `bare node listening → 200: median ${median(floors).toFixed(0)} ms; ratio ${(median(starts) / median(floors)).toFixed(1)}×`,
  '',
  'banner of the last start:',
  lastOutput.trim(),
);
console.log(lines.join('\n'));
