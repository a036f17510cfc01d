import { isInOfficeDialog, messageParent } from '../office/dialog.js';
import { whenOfficeReady } from '../office/ready.js';
import { adminPendingKey, completeSignIn, type PendingSignIn } from './session.js';

/**
 * The page the sign-in returns to (`/addin/auth-callback.html?code=…&state=…`). In the task pane's Office
 * dialog it hands the answer to the task pane, which holds the PKCE verifier; for the admin console (a plain
 * browser tab) it finishes the exchange itself and returns to /admin.
 */
async function finish(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const answer = {
    code: params.get('code') ?? undefined,
    state: params.get('state') ?? undefined,
    error: params.get('error') ?? undefined,
  };
  if (answer.state?.startsWith('admin.')) {
    const pending = JSON.parse(sessionStorage.getItem(adminPendingKey) ?? 'null') as PendingSignIn | null;
    sessionStorage.removeItem(adminPendingKey);
    if (!pending) throw new Error('This sign-in was started elsewhere. Open the admin console and sign in again.');
    await completeSignIn(location.origin, pending, answer);
    location.replace('/admin');
    return;
  }
  await whenOfficeReady();
  if (!isInOfficeDialog()) throw new Error('Open Sitefile from Outlook to sign in.');
  messageParent(JSON.stringify(answer));
}

finish().catch((error: unknown) => {
  const status = document.getElementById('status');
  if (status) status.textContent = error instanceof Error ? error.message : 'Sign-in failed.';
});
