import { useState } from 'react';

/** Runs one change (a button's work); `done` follows a success (reload the list), a failure is kept to be shown. */
export type Action = (work: () => Promise<unknown>) => Promise<void>;

export function useAction(done: () => void): { actionError: unknown; act: Action } {
  const [actionError, setActionError] = useState<unknown>();
  const act = async (work: () => Promise<unknown>) => {
    setActionError(undefined);
    try {
      await work();
      done();
    } catch (error) {
      setActionError(error);
    }
  };
  return { actionError, act };
}
