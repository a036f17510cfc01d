// Another instance's bus in a process of its own, for server/cache/bus.test.ts: its event loop can be kept busy, or
// the whole process stopped, while the test's goes on. Argument: the Redis URL. It subscribes to `callers` and
// prints `applied <key> <Date.now()>` for each key it applies; a line `busy <ms>` on stdin keeps its event loop busy
// that long, after printing `busy` (stdout to a pipe is synchronous on Linux: the line is out before the loop stops).
import pino from 'pino';
import { createRedisBus } from './bus.js';

const bus = createRedisBus(process.argv[2]!, pino({ level: 'warn' }, pino.destination(2)));
bus.subscribe('callers', (key) => process.stdout.write(`applied ${key} ${Date.now()}\n`));
process.stdin.setEncoding('utf8').on('data', (line: string) => {
  const until = Date.now() + Number(line.match(/^busy (\d+)/)?.[1] ?? 0);
  process.stdout.write('busy\n');
  while (Date.now() < until) {
    // A request that keeps the CPU: messages wait in the socket until it ends.
  }
});
