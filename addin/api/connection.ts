/**
 * Whether the Sitefile server answered the last request. The API client reports every attempt; the pane shows one
 * "offline" bar while it is down and the failed loads run again by themselves when it answers again.
 */
export function createConnection() {
  let offline = false;
  const listeners = new Set<() => void>();
  return {
    isOffline: () => offline,
    /** Called after every request: `reached` is false when no answer came at all. */
    report(reached: boolean) {
      if (offline === !reached) return;
      offline = !reached;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export type Connection = ReturnType<typeof createConnection>;
