import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from '../api/client.js';
import { beginSignIn, completeSignIn, isSignedIn, sessionTokens, signOut } from '../auth/session.js';
import { openDialogForMessage } from '../office/dialog.js';
import { whenOfficeReady } from '../office/ready.js';
import { prefersDark, Shell } from '../ui/shell.js';
import { TaskPane } from './App.js';
import { type FirstLook, startFirstLook } from './first-look.js';
import { officeMailHost } from './mail-host.js';

const origin = location.origin;

/** Signs in through the Office dialog: the dialog returns the code, the verifier never leaves this page. */
async function signInWithDialog(): Promise<void> {
  const { url, pending } = await beginSignIn(origin, 'pane');
  const answer = JSON.parse(await openDialogForMessage(url)) as { code?: string; state?: string; error?: string };
  await completeSignIn(origin, pending, answer);
}

/** Told when the session ends (refresh refused, or a 401). */
let onSignedOut = () => {};
const api = createApiClient(sessionTokens(origin, () => onSignedOut()));

function Root({ dark, firstLook }: { dark: boolean; firstLook: FirstLook | undefined }) {
  const [signedIn, setSignedIn] = useState(isSignedIn);
  useEffect(() => {
    onSignedOut = () => setSignedIn(false);
  }, []);
  return (
    <Shell dark={dark}>
      <TaskPane
        api={api}
        host={officeMailHost}
        signedIn={signedIn}
        firstLook={firstLook}
        signIn={async () => {
          await signInWithDialog();
          setSignedIn(true);
        }}
        signOut={() => {
          signOut();
          setSignedIn(false);
        }}
      />
    </Shell>
  );
}

// Nothing renders before Office is ready: the components read the mailbox as soon as they mount.
whenOfficeReady().then((office) => {
  const firstLook = office.inOutlook && isSignedIn() ? startFirstLook(api, officeMailHost) : undefined;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root dark={office.dark || prefersDark()} firstLook={firstLook} />
    </StrictMode>,
  );
});
