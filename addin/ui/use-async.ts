import { useCallback, useEffect, useState } from 'react';
import { isUnreachable } from '../api/client.js';
import { useConnection } from './connection.js';

export type AsyncState<T> = { status: 'loading' } | { status: 'done'; data: T } | { status: 'failed'; error: unknown };

const sameDeps = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, i) => Object.is(value, b[i]));

/**
 * Runs `load` when its dependencies change; `reload` runs it again (the Retry button). A load that failed because
 * the server could not be reached runs again by itself once the server answers. An answer is returned only for
 * the dependencies it was loaded for: in the render where they change (another e-mail selected) the state is
 * 'loading', never the previous e-mail's answer.
 */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): AsyncState<T> & { reload: () => void } {
  const [answer, setAnswer] = useState<{ state: AsyncState<T>; deps: readonly unknown[] }>({
    state: { status: 'loading' },
    deps,
  });
  const setState = (state: AsyncState<T>) => setAnswer({ state, deps });
  const state: AsyncState<T> = sameDeps(answer.deps, deps) ? answer.state : { status: 'loading' };
  const [attempt, setAttempt] = useState(0);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the dependencies of `load`
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    load().then(
      (data) => current && setState({ status: 'done', data }),
      (error: unknown) => current && setState({ status: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [...deps, attempt]);
  useRunAgainWhenOnline(state.status === 'failed' ? state.error : undefined, reload);
  return { ...state, reload };
}

/** Runs `again` once the server answers again, while `error` says it could not be reached. */
export function useRunAgainWhenOnline(error: unknown, again: () => void) {
  const connection = useConnection();
  const waitsForServer = error !== undefined && isUnreachable(error);
  useEffect(() => {
    if (!waitsForServer || !connection) return;
    return connection.subscribe(() => {
      if (!connection.isOffline()) again();
    });
  }, [waitsForServer, connection, again]);
}
