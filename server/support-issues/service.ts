import type { CreateSupportIssueBody, SupportIssue } from '../../shared/support-issues.js';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { cursorPosition, cutPage, type KeysetPosition, keysetCursor } from '../cursor.js';
import { newId } from '../ids.js';
import { insertSupportIssue } from './queries.js';
import { foldForSearch, invalidateRunbook } from './runbook.js';

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

const runbookPosition = (entry: { createdAt: string; id: string }): KeysetPosition => ({
  key: entry.createdAt,
  id: entry.id,
});

/** One page of the runbook (newest first), searched in memory on the cached compilation. */
export async function readRunbook(app: AppContext, query: { search?: string; cursor?: string; limit: number }) {
  const terms = foldForSearch(query.search ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const entries = await app.caches.runbook.entries();
  const matching = terms.length ? entries.filter((e) => terms.every((t) => e.haystack.includes(t))) : entries;
  const binding = { runbook: terms };
  const after = cursorPosition(app.cursorKey, query.cursor, binding, 'timestamp');
  // Newest first, ties by id descending: resume after the last entry returned.
  const start = after
    ? matching.findIndex((e) => e.createdAt < after.key || (e.createdAt === after.key && e.id < after.id))
    : 0;
  const rest = start < 0 ? [] : matching.slice(start, start + query.limit + 1);
  const { page, nextCursor, hasMore } = cutPage(
    rest,
    query.limit,
    keysetCursor(app.cursorKey, binding, runbookPosition),
  );
  return { data: page.map(({ haystack: _, ...issue }) => issue), total: matching.length, nextCursor, hasMore };
}
