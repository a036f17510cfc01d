import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { type ReactNode, useState } from 'react';
import { ErrorNotice } from './notices.js';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  // The theme's thin stroke, not the browser's default groove (a bright white frame in dark mode).
  group: {
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    margin: 0,
    minWidth: 0,
  },
  checks: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalL },
});

/** Runs `work` as a form's submission: busy while it runs, its failure kept to be shown (and cleared on the next). */
export function useSubmit<A extends unknown[]>(work: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (...args: A) => {
    setBusy(true);
    setError(undefined);
    try {
      await work(...args);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit };
}

/**
 * A form that makes one thing: its heading, its fields, why the last try failed (under `failedTitle`), what it
 * made (`outcome`), and the primary button, which says `busyLabel` while `work` runs and waits for `ready`.
 */
export function MakeForm({
  heading,
  work,
  ready,
  label,
  busyLabel,
  failedTitle,
  outcome,
  children,
}: {
  heading: string;
  work: () => Promise<void>;
  ready: boolean;
  label: string;
  busyLabel: string;
  failedTitle: string;
  outcome?: ReactNode;
  children: ReactNode;
}) {
  const styles = useStyles();
  const { busy, error, submit } = useSubmit(work);
  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Text as="h2" size={400} weight="semibold">
        {heading}
      </Text>
      {children}
      {error !== undefined && <ErrorNotice error={error} title={failedTitle} />}
      {outcome}
      <div>
        <Button type="submit" appearance="primary" disabled={busy || !ready}>
          {busy ? busyLabel : label}
        </Button>
      </div>
    </form>
  );
}

/** Checkboxes under a legend, side by side as the width allows. */
export function CheckGroup({ legend, children }: { legend: ReactNode; children: ReactNode }) {
  const styles = useStyles();
  return (
    <fieldset className={styles.group}>
      <legend>{legend}</legend>
      <div className={styles.checks}>{children}</div>
    </fieldset>
  );
}
