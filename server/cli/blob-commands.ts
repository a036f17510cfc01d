// `sweep-blobs`: the blob sweep the server runs every BLOB_SWEEP_INTERVAL_SECONDS (server/blobs/sweep.ts), now.
import type { Command } from 'commander';
import pino from 'pino';
import { createBlobStore } from '../blobs/configured.js';
import { sweepAllReleasedBlobs } from '../blobs/sweep.js';
import { systemClock } from '../clock.js';
import { output, withDatabase } from './session.js';

export function addBlobCommands(program: Command): void {
  program
    .command('sweep-blobs')
    .description(
      'delete now the stored blobs nothing refers to any more whose grace period (BLOB_SWEEP_GRACE_HOURS) has passed',
    )
    .option('--json', 'print the count as JSON')
    .action(async (opts: { json?: boolean }) => {
      const deleted = await withDatabase(({ config, db }) =>
        sweepAllReleasedBlobs({
          db,
          blobs: createBlobStore(config),
          clock: systemClock,
          log: pino({ level: config.logLevel }, pino.destination(2)),
          settings: config.blobSweep,
        }),
      );
      output(opts.json, { deleted }, `Deleted ${deleted} unreferenced blobs`);
    });
}
