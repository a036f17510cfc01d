/**
 * Whose statement PGlite runs next. PGlite is one single-threaded engine for the whole process: a statement
 * blocks every other one (and, being WebAssembly on the main thread, every request) until it ends, and its own
 * queue is first come, first served. Work cut into many short statements (the explorer's slices, the pages of
 * a CSV export) therefore takes its turns apart from ordinary statements: one short statement at a time, only
 * when no ordinary statement (or transaction) is waiting or running nor has run for a few milliseconds, after
 * a turn of the event loop so that requests that arrived meanwhile are read first, and, while other callers
 * are active, at most half of the time. A request then waits for about one slice, not for one at each of its
 * steps. Background callers take turns in order of arrival, so two heavy callers share what is left.
 */
const RECENT = 10_000;
/** How long the database must have had no ordinary statement before a background one may start: a request's
 *  statements come one after another with short gaps (a Redis call, its own JavaScript), and a slice that
 *  started in each gap would make the request wait for several. */
const ORDINARY_GRACE_MS = 4;
/** Other callers count as active for this long after their last statement. */
const ACTIVE_WINDOW_MS = 250;
/** Background work still gets a turn at least this often under a steady stream of ordinary statements. */
const BACKGROUND_EVERY_MS = 50;

/** Slices this many times over their aim count as costly whatever their size when their time hardly
 *  follows their rows (below, SliceSizer). */
const FIXED_COST_AIMS = 4;

const ratio = (a: number, b: number) => Math.max(a, b) / Math.max(Math.min(a, b), 1e-3);

/**
 * Rows per statement of work cut into slices, aimed at `targetMs` of processor time (which a busy machine does
 * not inflate): from the last slice's rows and time, within half and twice its size, or four times after a
 * slice under a quarter of the aim (a cheap query reaches large slices in a few steps; a misjudged one
 * overshoots by little), at most `most`. A statement whose
 * cost hardly depends on its rows (a page of a list that no index orders sorts the whole list) cannot be made
 * short: when two slices of sizes at least twice apart both took over FIXED_COST_AIMS times the aim, within a
 * quarter of each other, the slices grow instead (twice the larger), so that there are fewer of them; a time that
 * only looked fixed (a busy machine's noise) shows at the next slice, which then shrinks.
 */
export class SliceSizer {
  private last: { rows: number; ms: number } | undefined;

  constructor(
    public rows: number,
    private readonly targetMs: number,
    private readonly most: number,
  ) {}

  /** Told the processor time of a slice of `rows`, sizes the next one. */
  took(ms: number): void {
    const { rows, last } = this;
    this.last = { rows, ms };
    const costly = this.targetMs * FIXED_COST_AIMS;
    if (last && ms > costly && last.ms > costly && ratio(rows, last.rows) >= 2 && ratio(ms, last.ms) < 1.25) {
      this.rows = Math.min(this.most, Math.max(rows, last.rows) * 2);
      return;
    }
    const aimed = Math.round((rows * this.targetMs) / Math.max(ms, 0.1));
    const growth = ms < this.targetMs / 4 ? 4 : 2;
    this.rows = Math.min(this.most, Math.max(1, Math.ceil(rows / 2), Math.min(rows * growth, aimed)));
  }
}

/** The process's processor time (user and system) since `start`, in milliseconds. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

export class EmbeddedTurns {
  private ordinary = 0;
  private backgroundRunning = false;
  private turnScheduled = false;
  private lastOrdinaryEnd = -Infinity;
  private lastBackgroundEnd = performance.now();
  /** When the next background statement may start at the earliest (its share of the event loop). */
  private nextBackgroundAt = 0;
  private readonly waiting: (() => void)[] = [];
  /** The processor time of the last background statements (at most RECENT of them): what an ordinary statement
   *  that came while one ran waited for, on a machine with a core to spare (PGlite runs on this thread). */
  readonly recentBackgroundCpuMs: number[] = [];

  /** Runs an ordinary statement (or a whole transaction) in PGlite's own order. */
  async ordinaryStatement<T>(run: () => Promise<T>): Promise<T> {
    this.ordinary += 1;
    try {
      return await run();
    } finally {
      this.ordinary -= 1;
      this.lastOrdinaryEnd = performance.now();
      this.offerTurn();
    }
  }

  /** Runs one short background statement when the database has nothing ordinary to do. */
  async backgroundStatement<T>(run: () => Promise<T>): Promise<T> {
    await new Promise<void>((admit) => {
      this.waiting.push(admit);
      this.offerTurn();
    });
    const started = process.cpuUsage();
    const startedAt = performance.now();
    try {
      return await run();
    } finally {
      this.recentBackgroundCpuMs.push(cpuMsSince(started));
      if (this.recentBackgroundCpuMs.length > RECENT) this.recentBackgroundCpuMs.shift();
      this.backgroundRunning = false;
      const now = performance.now();
      this.lastBackgroundEnd = now;
      // While other callers are active, background work takes at most half of the event loop: the pause after
      // a statement as long as the statement, in which a request's chain of steps (its socket reads, a Redis
      // call, its answer's write) runs without waiting for a slice at each step.
      this.nextBackgroundAt = now - this.lastOrdinaryEnd < ACTIVE_WINDOW_MS ? now + (now - startedAt) : now;
      this.offerTurn();
    }
  }

  /** Milliseconds until a background statement may start (0: now); undefined while none may start at all. */
  private msUntilTurn(): number | undefined {
    if (this.backgroundRunning || this.waiting.length === 0) return undefined;
    const now = performance.now();
    if (this.ordinary > 0) return undefined;
    const earliest = Math.max(this.nextBackgroundAt, this.lastOrdinaryEnd + ORDINARY_GRACE_MS);
    return Math.max(0, Math.min(earliest, this.lastBackgroundEnd + BACKGROUND_EVERY_MS) - now);
  }

  private offerTurn(): void {
    if (this.turnScheduled) return;
    const wait = this.msUntilTurn();
    if (wait === undefined) return;
    this.turnScheduled = true;
    // setImmediate runs after the event loop's poll phase: sockets with data are read (and their requests'
    // statements queued as ordinary) before the next background statement may start.
    const take = () => {
      this.turnScheduled = false;
      const left = this.msUntilTurn();
      if (left === undefined) return;
      if (left > 0) return this.offerTurn();
      this.backgroundRunning = true;
      this.waiting.shift()!();
    };
    if (wait > 0) setTimeout(take, Math.ceil(wait));
    else setImmediate(take);
  }
}
