import { OfficeCallError, officeCall } from './async.js';

/** Office's "the user closed the dialog" event code. */
const dialogClosedByUser = 12006;

export class DialogClosedError extends Error {
  constructor() {
    super('The sign-in window was closed before sign-in finished');
    this.name = 'DialogClosedError';
  }
}

/**
 * Opens `url` in an Office dialog and resolves with the first message the page sends back through
 * `Office.context.ui.messageParent`; the dialog is closed afterwards.
 */
export async function openDialogForMessage(url: string): Promise<string> {
  const dialog = await officeCall<Office.Dialog>('displayDialogAsync', (cb) =>
    Office.context.ui.displayDialogAsync(url, { height: 60, width: 30, promptBeforeOpen: false }, cb),
  ).catch((error: unknown) => {
    throw dialogError(error);
  });
  return new Promise<string>((resolve, reject) => {
    dialog.addEventHandler(Office.EventType.DialogMessageReceived, (arg) => {
      dialog.close();
      resolve('message' in arg ? arg.message : '');
    });
    dialog.addEventHandler(Office.EventType.DialogEventReceived, (arg) => {
      const code = 'error' in arg ? arg.error : undefined;
      reject(code === dialogClosedByUser ? new DialogClosedError() : new Error(`The sign-in window failed (${code})`));
    });
  });
}

/** Office's codes for a dialog that could not open: blocked by the browser, or one already open. */
const dialogBlocked = 12009;
const dialogAlreadyOpen = 12007;

/** Why the sign-in window did not open, and what the person can do about it. */
function dialogError(error: unknown): Error {
  const code = error instanceof OfficeCallError ? error.code : undefined;
  if (code === dialogBlocked || /blocked/i.test(String((error as Error)?.message))) {
    return new Error(
      'The sign-in window was blocked. Allow pop-ups for Outlook (in the browser, for this site), then press Sign in again.',
    );
  }
  if (code === dialogAlreadyOpen) {
    return new Error('A sign-in window is already open. Finish or close it, then press Sign in again.');
  }
  return new Error(
    'The sign-in window could not be opened. Press Sign in again; if it keeps failing, restart Outlook.',
  );
}

/** In the dialog page: hand a message to the task pane that opened it. */
export function messageParent(message: string): void {
  Office.context.ui.messageParent(message);
}

/** In the dialog page: whether it is running inside an Office dialog at all. */
export function isInOfficeDialog(): boolean {
  return typeof Office !== 'undefined' && typeof Office.context?.ui?.messageParent === 'function';
}
