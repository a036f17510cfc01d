import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { permissionKeys } from '../../shared/permissions.js';
import { createClient } from '../api-keys/service.js';
import { verifySecret } from '../auth/secrets.js';
import { createBlobStore } from '../blobs/configured.js';
import type { Config } from '../config.js';
import { type Db, withAdvisoryLock } from '../db/connection.js';
import { createUser } from '../users/service.js';
import {
  disableClient,
  disableUsers,
  enabledExampleDomainPeople,
  enabledPeopleByEmail,
  findClientByClientId,
  findClientByName,
  hasOrganizationsBesides,
  organizationsOfClient,
  readStoredDemoCredentials,
  storeDemoCredentials,
} from './queries.js';

export const DEMO_SEED = 1;
export const DEMO_KEY_NAME = 'Sitefile demo key';
export const DEMO_STAFF = { email: 'staff@sitefile.example', name: 'Sam Staff' };
/**
 * The passwords earlier versions gave every demo person and printed in the README: whoever has them can sign in
 * wherever such an account still exists, so outside demo mode those accounts are disabled at start.
 */
export const PUBLISHED_DEMO_PASSWORDS = ['sitefile-admin-demo', 'sitefile-member-demo'] as const;

const demoCredentialsSchema = z.object({
  client: z.object({ clientId: z.string(), clientSecret: z.string() }),
  staff: z.object({ email: z.string(), password: z.string() }),
  users: z.array(
    z.object({ email: z.string(), password: z.string(), role: z.enum(['admin', 'member']), orgId: z.string() }),
  ),
});
export type DemoCredentials = z.infer<typeof demoCredentialsSchema>;

export interface DemoData extends DemoCredentials {
  organizations: { id: string; name: string; projects: { id: string; name: string }[] }[];
}

/** What a start did about the demo: its data and credentials in demo mode, else the warnings to log. */
export interface DemoOutcome {
  demo: DemoData | undefined;
  warnings: string[];
}

/**
 * Demo mode: `SITEFILE_DEMO=1`, or (unset) the embedded database while it is empty or holds only the demo. Anything
 * else — PostgreSQL, or an embedded database with real organizations — is a real deployment.
 */
async function inDemoMode(db: Db, config: Config): Promise<boolean> {
  if (config.demo !== 'auto') return config.demo === 'on';
  if (config.databaseUrl) return false;
  return !(await demoInDatabase(db)).realOrganizations;
}

/**
 * The demo's stored credentials, if it was seeded here, and whether the database holds real organizations: any
 * organization the demo did not seed. Once it does, the demo's printed secrets must open nothing (the staff sign-in
 * reads every organization).
 */
async function demoInDatabase(db: Db): Promise<{ stored: DemoCredentials | undefined; realOrganizations: boolean }> {
  const stored = demoCredentialsSchema.optional().parse(await readStoredDemoCredentials(db));
  const demoOrganizations = stored ? [...new Set(stored.users.map((user) => user.orgId))] : [];
  return { stored, realOrganizations: await hasOrganizationsBesides(db, demoOrganizations) };
}

/**
 * `npm start`: the demo's data and credentials in demo mode; otherwise nothing is added or printed, and demo
 * access that an earlier start left in the database (published passwords, the demo key, the demo staff) is
 * disabled, with one warning naming it — or, when this start imported an earlier version's data directory
 * (`importedFrom`, where its database was moved) that held its demo, one warning saying what to do instead.
 */
export async function prepareDemo(
  db: Db,
  config: Config,
  now: Date = new Date(),
  importedFrom?: string,
): Promise<DemoOutcome> {
  const warnings: string[] = [];
  if (await inDemoMode(db, config)) {
    const demo = await ensureDemoData(db, config, now);
    if (demo) return { demo, warnings };
    warnings.push(
      'SITEFILE_DEMO=1 but the database holds organizations that are not the demo data: no demo data or accounts were added',
    );
  }
  const retired = await retireDemoAccess(db, now);
  if (importedFrom && (retired.length > 0 || (await demoKey(db, undefined)))) {
    warnings.push(
      `The imported data directory (${importedFrom}) held an earlier version's demo, whose sign-ins do not work ` +
        `here${retired.length ? ` (${retired.length} disabled: their passwords were published)` : ''}. ` +
        'For a demo, start with an empty DATA_DIR; to use the imported data, add a sign-in: ' +
        'npm run cli -- user create --email <e-mail> --name <name> --password <password> --staff',
    );
  } else if (retired.length) {
    warnings.push(
      `Not in demo mode: disabled demo access found in this database (${retired.join(', ')}); ` +
        'their sign-ins and tokens are refused from now on',
    );
  }
  return { demo: undefined, warnings };
}

/**
 * Demo mode (`npm start` in demo mode, `cli demo`): seeds the demo into an empty database with an all-permission
 * demo key, a staff sign-in and an admin and a member per organization, all with passwords made for this
 * database; stores their credentials with the data (so every start and instance shows the same ones, and none
 * rotates them) and in `DATA_DIR/demo-credentials.json`. Answers undefined for a database that holds real
 * organizations, also beside the demo (its secrets were printed; `prepareDemo` then disables its accounts).
 */
export function ensureDemoData(db: Db, config: Config, now: Date = new Date()): Promise<DemoData | undefined> {
  // Instances starting together on an empty PostgreSQL database: one seeds, the others then find the data.
  return withAdvisoryLock(db, 'sitefile:demo-data', () => ensureDemoDataNow(db, config, now));
}

async function ensureDemoDataNow(db: Db, config: Config, now: Date): Promise<DemoData | undefined> {
  const { stored, realOrganizations } = await demoInDatabase(db);
  if (realOrganizations) return undefined;
  if (stored) {
    const client = await findClientByClientId(db, stored.client.clientId);
    writeCredentialsFile(config, stored);
    return { ...stored, organizations: client ? await organizationsOfClient(db, client.id) : [] };
  }
  return seedDemo(db, config, now);
}

async function seedDemo(db: Db, config: Config, now: Date): Promise<DemoData> {
  // Loaded only for an empty database: the seed brings the PDF library, which a restart does not need.
  const { newSeedPasswords, seedDatabase } = await import('./seed.js');
  const summary = await seedDatabase(db, createBlobStore(config), {
    scale: 'demo',
    seed: DEMO_SEED,
    now,
    passwords: newSeedPasswords(),
  });
  const staffPassword = `staff-${randomBytes(9).toString('base64url')}`;
  await createUser(db, { ...DEMO_STAFF, password: staffPassword, staff: true, title: 'Platform support' });
  const client = await createClient(db, {
    name: DEMO_KEY_NAME,
    description: 'Created with the demo data; every permission on both demo organizations.',
    permissions: [...permissionKeys],
    orgIds: summary.organizations.map((o) => o.id),
    projects: [],
    createdBy: DEMO_STAFF.email,
  });
  const credentials: DemoCredentials = {
    client: { clientId: client.clientId, clientSecret: client.client_secret },
    staff: { email: DEMO_STAFF.email, password: staffPassword },
    users: summary.accounts.map(({ email, password, role, orgId }) => ({ email, password, role, orgId })),
  };
  const kept = demoCredentialsSchema.parse(await storeDemoCredentials(db, credentials));
  writeCredentialsFile(config, kept);
  return {
    ...kept,
    organizations: summary.organizations.map((o) => ({
      id: o.id,
      name: o.name,
      projects: o.projects.map(({ id, name }) => ({ id, name })),
    })),
  };
}

/** Written atomically and readable only by the owner: it holds live secrets. */
function writeCredentialsFile(config: Config, credentials: DemoCredentials): void {
  const file = path.join(config.dataDir, 'demo-credentials.json');
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(`${file}.tmp`, 0o600);
  renameSync(`${file}.tmp`, file);
}

/**
 * Disables what a demo start left behind, naming each: people at `.example` addresses who still sign in with a
 * published password and — in a database with real organizations (an earlier version seeded the demo key and
 * staff into real ones; or the demo was seeded here and real organizations came later) — every sign-in and the key
 * whose secrets a demo start printed.
 */
async function retireDemoAccess(db: Db, now: Date): Promise<string[]> {
  const { stored, realOrganizations } = await demoInDatabase(db);
  const printed = realOrganizations
    ? await enabledPeopleByEmail(db, [DEMO_STAFF.email, ...(stored?.users.map((user) => user.email) ?? [])])
    : [];
  const retired = new Map([...(await peopleWithPublishedPasswords(db)), ...printed].map((p) => [p.id, p.email]));
  await disableUsers(db, [...retired.keys()], now);
  const names = [...retired.values()].sort();
  const key = realOrganizations ? await demoKey(db, stored) : undefined;
  if (key?.enabled) {
    await disableClient(db, key.id, now);
    names.push(`API key "${DEMO_KEY_NAME}" ${key.clientId}`);
  }
  return names;
}

/** The demo key: the one the stored credentials name, or the one an earlier version made by name. */
const demoKey = (db: Db, stored: DemoCredentials | undefined) =>
  stored ? findClientByClientId(db, stored.client.clientId) : findClientByName(db, DEMO_KEY_NAME, DEMO_STAFF.email);

async function peopleWithPublishedPasswords(db: Db) {
  const published = new Map<string, boolean>();
  const found: { id: string; email: string }[] = [];
  for (const person of await enabledExampleDomainPeople(db)) {
    const hash = person.passwordHash!;
    if (!published.has(hash)) published.set(hash, await isPublishedPassword(hash));
    if (published.get(hash)) found.push(person);
  }
  return found;
}

async function isPublishedPassword(hash: string): Promise<boolean> {
  for (const password of PUBLISHED_DEMO_PASSWORDS) if (await verifySecret(hash, password)) return true;
  return false;
}
