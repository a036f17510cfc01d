import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { outageLog } from '../outage-log.js';
import { claimDueReleases, dropRelease, referencedBlobKeys } from './queries.js';
import type { BlobStore } from './store.js';

// Blobs are content-addressed and shared (the same e-mail filed in two projects, the same attachment on two
// e-mails), so letting go of one reference never deletes bytes there and then: it notes a release
// (queries.ts releaseBlobs). The sweep deletes a released blob once the grace period has passed since the
// release AND since the blob was last written, and only when no row refers to it any more. The first wait keeps
// a download under way or an undo safe; the second a filing that stored the same bytes a moment ago and has not
// yet written its row. A blob referred to again just loses its release.

const BATCH = 200;

export interface BlobSweepDeps {
  db: Db;
  blobs: BlobStore;
  clock: Clock;
  log: Logger;
  settings: Config['blobSweep'];
}

/** What one pass did: blobs deleted, and releases settled (deleted, or dropped as referenced again). */
export interface SweepPass {
  deleted: number;
  settled: number;
}

/** One pass over at most a batch of due releases. */
export async function sweepReleasedBlobs(deps: BlobSweepDeps): Promise<SweepPass> {
  const before = new Date(deps.clock.now().getTime() - deps.settings.graceMs);
  return deps.db.transaction(async (tx) => {
    const due = (await claimDueReleases(tx, before, BATCH)).map((row) => row.blobKey);
    const referenced = await referencedBlobKeys(tx, due);
    let deleted = 0;
    let settled = 0;
    for (const key of due) {
      if (!referenced.has(key)) {
        const writtenAt = await deps.blobs.writtenAt(key);
        if (writtenAt && writtenAt > before) continue; // stored again lately: a later pass decides
        if (writtenAt) {
          await deps.blobs.remove(key);
          deleted++;
        }
      }
      await dropRelease(tx, key);
      settled++;
    }
    if (deleted > 0) deps.log.info({ deleted }, 'blob sweep: unreferenced blobs deleted');
    return { deleted, settled };
  });
}

/** Passes until no full batch is left to settle (the CLI's `sweep-blobs`): answers how many blobs it deleted. */
export async function sweepAllReleasedBlobs(deps: BlobSweepDeps): Promise<number> {
  let deleted = 0;
  for (;;) {
    const pass = await sweepReleasedBlobs(deps);
    deleted += pass.deleted;
    if (pass.settled < BATCH) return deleted;
  }
}

/** Runs the sweep every `intervalMs` on this instance (instances share the work: each claims its own releases). */
export function startBlobSweeper(deps: BlobSweepDeps): { close(): Promise<void> } {
  const outage = outageLog(deps.log, {
    failing: 'blob sweep failing: unreferenced blobs wait until it works again',
    working: 'blob sweep working again',
  });
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= sweepReleasedBlobs(deps)
      .then(() => outage.recovered(), outage.failed)
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, deps.settings.intervalMs);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
