import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { createContext, type ReactNode, useContext, useEffect, useSyncExternalStore } from 'react';
import type { Connection } from '../api/connection.js';

/** While offline, how often the pane asks the server whether it is back. */
const probeEveryMs = 5_000;

const ConnectionContext = createContext<Connection | undefined>(undefined);

export function ConnectionProvider({ connection, children }: { connection: Connection; children: ReactNode }) {
  return <ConnectionContext value={connection}>{children}</ConnectionContext>;
}

/** The connection of the page (undefined outside a ConnectionProvider). */
export const useConnection = () => useContext(ConnectionContext);

/** True while the server gives no answer. */
export function useOffline(): boolean {
  const connection = useConnection();
  return useSyncExternalStore(
    (listener) => connection?.subscribe(listener) ?? (() => {}),
    () => connection?.isOffline() ?? false,
  );
}

/**
 * The one bar that says the pane is offline (instead of one error per request), while it asks the server again
 * every few seconds; the loads that failed run again once it answers. The session is kept meanwhile.
 */
export function OfflineBar({ probe }: { probe: () => Promise<unknown> }) {
  const offline = useOffline();
  useEffect(() => {
    if (!offline) return;
    const timer = setInterval(() => void probe().catch(() => undefined), probeEveryMs);
    const online = () => void probe().catch(() => undefined);
    window.addEventListener('online', online);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', online);
    };
  }, [offline, probe]);
  if (!offline) return null;
  return (
    <MessageBar intent="warning" layout="multiline" role="status">
      <MessageBarBody>
        <MessageBarTitle>Offline</MessageBarTitle>
        Sitefile cannot be reached. You are still signed in. The add-in checks every few seconds and then loads again
        what could not load; an e-mail that was not filed waits for you to press File again.
      </MessageBarBody>
      <MessageBarActions>
        <Button onClick={() => void probe().catch(() => undefined)}>Try now</Button>
      </MessageBarActions>
    </MessageBar>
  );
}
