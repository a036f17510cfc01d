import { officeCall } from './async.js';

/**
 * The person's own settings for the add-in, kept by Outlook in their mailbox (roaming settings): they follow the
 * person from one Outlook to another, and no one else reads them.
 */
export function readRoamingSetting(name: string): unknown {
  return Office.context.roamingSettings?.get(name);
}

export async function writeRoamingSetting(name: string, value: unknown): Promise<void> {
  const settings = Office.context.roamingSettings;
  settings.set(name, value);
  await officeCall<void>('roamingSettings.saveAsync', (cb) => settings.saveAsync(cb));
}
