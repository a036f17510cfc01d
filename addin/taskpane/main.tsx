import { type ReactNode, StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from '../api/client.js';
import {
  beginSignIn,
  completeSignIn,
  isSignedIn,
  type SignedOutReason,
  sessionTokens,
  signOutEverywhere,
} from '../auth/session.js';
import { openDialogForMessage } from '../office/dialog.js';
import { onThemeChanged, whenOfficeReady } from '../office/ready.js';
import { ConnectionProvider } from '../ui/connection.js';
import { Shell } from '../ui/shell.js';
import { TaskPane } from './App.js';
import { type FirstLook, startFirstLook } from './first-look.js';
import { officeMailHost } from './mail-host.js';
import { NoHost } from './NoHost.js';
import { createSavedChoices } from './saved-choices.js';

const origin = location.origin;

/** Signs in through the Office dialog: the dialog returns the code, the verifier never leaves this page. */
async function signInWithDialog(): Promise<void> {
  const { url, pending } = await beginSignIn(origin, 'pane');
  const answer = JSON.parse(await openDialogForMessage(url)) as { code?: string; state?: string; error?: string };
  await completeSignIn(origin, pending, answer);
}

/** Told when the session ends (refresh refused, or a 401). */
let onSignedOut: (reason: SignedOutReason) => void = () => {};
const api = createApiClient(sessionTokens(origin, (reason) => onSignedOut(reason)));

function Root({ firstLook }: { firstLook: FirstLook | undefined }) {
  const [signedIn, setSignedIn] = useState(isSignedIn);
  const [endedBecause, setEndedBecause] = useState<SignedOutReason>();
  // What was chosen for each e-mail outlives a sign-in that expired: the form comes back as it was.
  const [savedChoices] = useState(createSavedChoices);
  useEffect(() => {
    onSignedOut = (reason) => {
      setEndedBecause(reason);
      setSignedIn(false);
    };
  }, []);
  return (
    <ConnectionProvider connection={api.connection}>
      <TaskPane
        api={api}
        host={officeMailHost}
        signedIn={signedIn}
        endedBecause={endedBecause}
        savedChoices={savedChoices}
        firstLook={firstLook}
        signIn={async () => {
          await signInWithDialog();
          setSignedIn(true);
        }}
        signOut={() => {
          savedChoices.clear();
          setEndedBecause('signed-out');
          setSignedIn(false);
          void signOutEverywhere(origin);
        }}
      />
    </ConnectionProvider>
  );
}

/** The shell in Outlook's theme, followed live: Outlook switching light/dark repaints the open pane. */
function LiveShell({ dark, children }: { dark: boolean; children: ReactNode }) {
  const [isDark, setDark] = useState(dark);
  useEffect(() => {
    if (typeof Office !== 'undefined') onThemeChanged(setDark);
  }, []);
  return <Shell dark={isDark}>{children}</Shell>;
}

// Nothing renders before Office is ready: the components read the mailbox as soon as they mount.
whenOfficeReady().then((office) => {
  const firstLook =
    office.inOutlook && isSignedIn() && officeMailHost.hasOpenItem() ? startFirstLook(api, officeMailHost) : undefined;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <LiveShell dark={office.dark}>{office.inOutlook ? <Root firstLook={firstLook} /> : <NoHost />}</LiveShell>
    </StrictMode>,
  );
});
