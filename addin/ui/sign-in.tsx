import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { ErrorNotice } from './notices.js';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '420px' },
});

/** The signed-out screen: one button that starts the OAuth sign-in (no password ever enters the add-in). */
export function SignIn({ onSignIn, intro }: { onSignIn: () => Promise<void>; intro: string }) {
  const styles = useStyles();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const start = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onSignIn();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className={styles.root} aria-labelledby="sign-in-title">
      <Text as="h1" size={500} weight="semibold" id="sign-in-title">
        Sitefile
      </Text>
      <Text>{intro}</Text>
      {error !== undefined && <ErrorNotice error={error} onRetry={start} title="Not signed in" />}
      <Button appearance="primary" onClick={start} disabled={busy}>
        {busy ? <Spinner size="tiny" label="Signing in…" /> : 'Sign in to Sitefile'}
      </Button>
    </section>
  );
}
