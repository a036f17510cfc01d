import { useCallback, useEffect, useState } from 'react';
import { isUnreachable } from '../api/client.js';
import { useConnection } from './connection.js';

export type AsyncState<T> = { status: 'loading' } | { status: 'done'; data: T } | { status: 'failed'; error: unknown };

/**
 * Runs `load` when its dependencies change; `reload` runs it again (the Retry button). A load that failed because
 * the server could not be reached runs again by itself once the server answers.
 */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): AsyncState<T> & { reload: () => void } {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const connection = useConnection();
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
  const waitsForServer = state.status === 'failed' && isUnreachable(state.error);
  useEffect(() => {
    if (!waitsForServer || !connection) return;
    return connection.subscribe(() => {
      if (!connection.isOffline()) reload();
    });
  }, [waitsForServer, connection, reload]);
  return { ...state, reload };
}
