import { officeCall } from './async.js';
import { holdOpenItem, type ItemSource } from './mailbox.js';

/** The colour of Sitefile's categories in the message list (Outlook's preset 4 is green). */
const filedColour = 'Preset4';

/** The category that shows in Outlook's message list what is filed where ("Filed: 4410 Lakeshore Library"). */
export const filedCategoryName = (projectName: string) => `Filed: ${projectName}`.slice(0, 255);

/**
 * Adds the category to the open message (Mailbox 1.8). Outlook only applies categories that exist in the mailbox's
 * master list, so a new project's category is added there first (which needs the ReadWriteMailbox permission).
 * `on` is the e-mail that was filed: while another is open the category is not added (ItemChangedError).
 */
export async function markFiledInOutlook(projectName: string, on: ItemSource = holdOpenItem()): Promise<void> {
  const name = filedCategoryName(projectName);
  const master = Office.context.mailbox.masterCategories;
  const known = await officeCall<Office.CategoryDetails[]>('masterCategories.getAsync', (cb) => master.getAsync(cb));
  if (!known.some((c) => c.displayName === name)) {
    await officeCall<void>('masterCategories.addAsync', (cb) =>
      master.addAsync([{ displayName: name, color: filedColour as unknown as Office.MailboxEnums.CategoryColor }], cb),
    );
  }
  // The master list was asked first and may have taken a while: the e-mail filed must still be the open one.
  const filed = on.item();
  await officeCall<void>('categories.addAsync', (cb) => filed.categories.addAsync([name], cb));
}

/**
 * Takes the category off the e-mail (Mailbox 1.8) when its filing in that project was undone or moved. `on` is the
 * e-mail whose filing changed: while another is open nothing is touched (ItemChangedError).
 */
export async function unmarkFiledInOutlook(projectName: string, on: ItemSource = holdOpenItem()): Promise<void> {
  const name = filedCategoryName(projectName);
  const filed = on.item();
  await officeCall<void>('categories.removeAsync', (cb) => filed.categories.removeAsync([name], cb));
}
