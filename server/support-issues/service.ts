import type { CreateSupportIssueBody, SupportIssue } from '../../shared/support-issues.js';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { newId } from '../ids.js';
import { insertSupportIssue } from './queries.js';
import { foldForSearch, invalidateRunbook, runbookCache } from './runbook.js';

export async function createSupportIssue(
  app: AppContext,
  caller: Caller,
  input: CreateSupportIssueBody,
): Promise<SupportIssue> {
  const row = { id: newId('sup'), ...input, createdAt: app.clock.now(), createdBy: caller.email };
  await app.db.transaction((tx) => insertSupportIssue(tx, row));
  // After the commit, so no instance can reload the runbook without the new issue.
  await invalidateRunbook(app);
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/** One page of the runbook (newest first), searched in memory on the cached compilation. */
export async function readRunbook(app: AppContext, query: { search?: string; cursor?: string; limit: number }) {
  const terms = foldForSearch(query.search ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const entries = await runbookCache(app).entries();
  const matching = terms.length ? entries.filter((e) => terms.every((t) => e.haystack.includes(t))) : entries;
  const binding = { runbook: terms };
  let start = 0;
  if (query.cursor) {
    const after = decodeCursor(query.cursor, binding);
    const [createdAt] = after.k;
    // Newest first, ties by id descending: resume after the last entry returned.
    start = matching.findIndex(
      (e) => e.createdAt < String(createdAt) || (e.createdAt === createdAt && e.id < after.id),
    );
    if (start < 0) start = matching.length;
  }
  const page = matching.slice(start, start + query.limit);
  const hasMore = start + page.length < matching.length;
  const last = page[page.length - 1];
  return {
    data: page.map(({ haystack: _, ...issue }) => issue),
    total: matching.length,
    nextCursor: hasMore && last ? encodeCursor({ k: [last.createdAt], id: last.id }, binding) : null,
    hasMore,
  };
}
