import { Button } from '@fluentui/react-components';
import { type ReactNode, useState } from 'react';
import type { ProjectOption } from './project-directory.js';

/**
 * The state of "Unfile" and "Move…" for one filing, in the pane and in the admin console alike: whether the picker
 * of the project to move to is open, the project chosen, a change under way and the failure of the last one.
 */
export function useRefileState() {
  const [moving, setMoving] = useState(false);
  const [to, setTo] = useState<ProjectOption>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  /** Runs one change: the buttons are disabled meanwhile, and its failure is kept to be shown. */
  const run = async (change: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await change();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { moving, setMoving, to, setTo, busy, error, run };
}

/** The two buttons: Unfile, and Move… that opens and closes the picker (`after`: what follows them, a spinner). */
export function RefileButtons(props: {
  state: ReturnType<typeof useRefileState>;
  className: string;
  unfileLabel: string;
  moveLabel: string;
  onUnfile: () => void;
  after?: ReactNode;
}) {
  const { busy, moving, setMoving } = props.state;
  return (
    <div className={props.className}>
      <Button size="small" disabled={busy} onClick={props.onUnfile} aria-label={props.unfileLabel}>
        Unfile
      </Button>
      <Button
        size="small"
        disabled={busy}
        aria-expanded={moving}
        aria-label={props.moveLabel}
        onClick={() => setMoving((open) => !open)}
      >
        Move…
      </Button>
      {props.after}
    </div>
  );
}
