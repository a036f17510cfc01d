import type { SupportIssue } from '../../shared/support-issues.js';
import type { AppContext } from '../context.js';
import { newestSupportIssues } from './queries.js';

/** Bus channel: any message drops every instance's compiled runbook. */
export const RUNBOOK_CHANNEL = 'runbook';
/** The runbook holds at most this many (newest) support issues. */
export const RUNBOOK_MAX_ENTRIES = 10_000;
/** Pub/sub delivers at most once: a lost invalidation is outlived by this. */
const RUNBOOK_TTL_MS = 5 * 60 * 1000;

export interface RunbookEntry extends SupportIssue {
  /** Lower-cased, accent-free title, description and approach, for search. */
  haystack: string;
}

export const foldForSearch = (value: string) => value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The support issues compiled once into a searchable list (newest first) and kept per instance until a new
 * issue is published on the invalidation bus (Redis across instances) or the TTL runs out. An invalidation
 * during a load drops that load too, so a stale list is never installed.
 */
export class RunbookCache {
  private current: { entries: Promise<RunbookEntry[]>; loadedAt: number } | undefined;

  constructor(private readonly app: Pick<AppContext, 'db' | 'bus' | 'clock'>) {
    app.bus.subscribe(RUNBOOK_CHANNEL, () => {
      this.current = undefined;
    });
  }

  entries(): Promise<RunbookEntry[]> {
    const now = this.app.clock.now().getTime();
    if (this.current && now - this.current.loadedAt < RUNBOOK_TTL_MS) return this.current.entries;
    const entries = compile(this.app);
    const loading = { entries, loadedAt: now };
    this.current = loading;
    entries.catch(() => {
      if (this.current === loading) this.current = undefined;
    });
    return entries;
  }
}

async function compile(app: Pick<AppContext, 'db'>): Promise<RunbookEntry[]> {
  const rows = await newestSupportIssues(app.db, RUNBOOK_MAX_ENTRIES);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    description: row.description,
    approach: row.approach,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    haystack: foldForSearch(`${row.title}\n${row.description}\n${row.approach}`),
  }));
}

declare module '../context.js' {
  interface AppCaches {
    /** The support issues compiled for search. */
    runbook: RunbookCache;
  }
}

export const invalidateRunbook = (app: AppContext) => app.bus.publish(RUNBOOK_CHANNEL, 'all');
