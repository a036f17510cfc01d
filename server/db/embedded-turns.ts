/**
 * Whose statement PGlite runs next. PGlite is one single-threaded engine for the whole process: a statement
 * blocks every other one (and, being WebAssembly on the main thread, every request) until it ends, and its own
 * queue is first come, first served. Work cut into many short statements (the explorer's slices) therefore
 * takes its turns apart from ordinary statements: one short statement at a time, and only when no ordinary
 * statement (or transaction) is waiting or running, after a turn of the event loop so that requests that
 * arrived meanwhile are read first. Another caller's short query then waits at most for the one slice that
 * was running, never behind a chain of them. Background callers take turns in order of arrival, so two heavy
 * callers share what is left.
 */
const RECENT = 10_000;

/** The process's processor time (user and system) since `start`, in milliseconds. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

export class EmbeddedTurns {
  private ordinary = 0;
  private backgroundRunning = false;
  private turnScheduled = false;
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
    try {
      return await run();
    } finally {
      this.recentBackgroundCpuMs.push(cpuMsSince(started));
      if (this.recentBackgroundCpuMs.length > RECENT) this.recentBackgroundCpuMs.shift();
      this.backgroundRunning = false;
      this.offerTurn();
    }
  }

  private idle(): boolean {
    return !this.backgroundRunning && this.ordinary === 0 && this.waiting.length > 0;
  }

  private offerTurn(): void {
    if (this.turnScheduled || !this.idle()) return;
    this.turnScheduled = true;
    // setImmediate runs after the event loop's poll phase: sockets with data are read (and their requests'
    // statements queued as ordinary) before the next background statement may start.
    setImmediate(() => {
      this.turnScheduled = false;
      if (!this.idle()) return;
      this.backgroundRunning = true;
      this.waiting.shift()!();
    });
  }
}
