import type { ApiClient } from '../api/client.js';
import { lookupFilings, suggestionRequest } from './filing.js';
import type { MailHost } from './mail-host.js';

type Settled<T> = () => Promise<T> | undefined;

/** Hands out a promise once; later calls (a Retry, another e-mail) get undefined and ask again. */
const once = <T>(promise: Promise<T>): Settled<T> => {
  let pending: Promise<T> | undefined = promise;
  return () => {
    const taken = pending;
    pending = undefined;
    return taken;
  };
};

/**
 * The first e-mail's reads and requests, started as soon as Office is ready and before React mounts, so the
 * first suggestions do not wait for the first render. The components take these once, then ask for themselves.
 */
export function startFirstLook(api: ApiClient, host: MailHost) {
  const message = host.readOpenMessage();
  const suggestions = message.then(async (m) => api.suggestions(await suggestionRequest(host, m)));
  const lookup = message.then((m) => lookupFilings(api, m));
  // Failures are shown by the components that take these promises; keep them from being reported as unhandled.
  for (const p of [message, suggestions, lookup]) p.catch(() => undefined);
  return { message: once(message), suggestions: once(suggestions), lookup: once(lookup) };
}

export type FirstLook = ReturnType<typeof startFirstLook>;
