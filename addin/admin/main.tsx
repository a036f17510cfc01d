import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from '../api/client.js';
import { adminPendingKey, beginSignIn, isSignedIn, sessionTokens, signOutEverywhere } from '../auth/session.js';
import { prefersDark } from '../office/ready.js';
import { Shell } from '../ui/shell.js';
import { SignIn } from '../ui/sign-in.js';
import { AdminConsole } from './AdminConsole.js';

const origin = location.origin;

/** A plain browser tab: the sign-in page redirects back to the callback page, which returns here. */
async function signInWithRedirect(): Promise<void> {
  const { url, pending } = await beginSignIn(origin, 'admin');
  sessionStorage.setItem(adminPendingKey, JSON.stringify(pending));
  location.assign(url);
}

function Root() {
  const [signedIn, setSignedIn] = useState(isSignedIn);
  const [api] = useState(() => createApiClient(sessionTokens(origin, () => setSignedIn(false))));
  return (
    <Shell dark={prefersDark()}>
      {signedIn ? (
        <AdminConsole
          api={api}
          signOut={() => {
            setSignedIn(false);
            void signOutEverywhere(origin);
          }}
        />
      ) : (
        <SignIn
          onSignIn={signInWithRedirect}
          intro="The Sitefile admin console: AI suggestions for your organization and API keys. Sign in as an organization admin or as staff."
        />
      )}
    </Shell>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
