import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { permissionKeys } from '../../shared/permissions.js';
import { createClient } from '../api-keys/service.js';
import { hashSecret, newClientSecret, verifySecret } from '../auth/secrets.js';
import { createBlobStore } from '../blobs/configured.js';
import type { Config } from '../config.js';
import { type Db, withAdvisoryLock } from '../db/connection.js';
import { findUserByEmail } from '../users/queries.js';
import { createUser } from '../users/service.js';
import {
  allOrganizationIds,
  findClientByClientId,
  findClientByName,
  hasOrganizations,
  organizationsOfClient,
  passwordMembers,
  setClientSecretHash,
  setMembershipRole,
  setUserPasswordHash,
} from './queries.js';
import { demoPasswords } from './shapes.js';

export const DEMO_SEED = 1;
export const DEMO_KEY_NAME = 'Sitefile demo key';
export const DEMO_STAFF = { email: 'staff@sitefile.example', name: 'Sam Staff' };
/** Made only when a database has no sign-in account of that role to show (one seeded some other way). */
const DEMO_ACCOUNT_NAMES = { admin: 'Ada Admin', member: 'Max Member' } as const;
const demoAccountEmail = (role: 'admin' | 'member') => `demo-${role}@sitefile.example`;

export interface DemoCredentials {
  client: { clientId: string; clientSecret: string };
  staff: { email: string; password: string };
  users: { email: string; password: string; role: 'admin' | 'member'; orgId: string }[];
}

export interface DemoData extends DemoCredentials {
  organizations: { id: string; name: string; projects: { id: string; name: string }[] }[];
}

const credentialsFile = (config: Config) => path.join(config.dataDir, 'demo-credentials.json');

function readCredentials(config: Config): DemoCredentials | undefined {
  try {
    const stored = JSON.parse(readFileSync(credentialsFile(config), 'utf8')) as DemoCredentials;
    return stored.client?.clientId && stored.client.clientSecret && stored.staff?.password ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** Written atomically and readable only by the owner: it holds live secrets. */
function writeCredentials(config: Config, credentials: DemoCredentials): void {
  const file = credentialsFile(config);
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(`${file}.tmp`, 0o600);
  renameSync(`${file}.tmp`, file);
}

const newStaffPassword = () => `staff-${randomBytes(9).toString('base64url')}`;

/**
 * `npm start` and `cli demo`: seeds the demo data into an empty database, and makes sure a demo API
 * key (all permissions, every demo organization) and a staff login exist whose secrets are kept in
 * `DATA_DIR/demo-credentials.json`. When that file is missing or belongs to another database, the
 * demo key's secret and the staff password are rotated and the file is rewritten.
 */
export function ensureDemoData(db: Db, config: Config, now: Date = new Date()): Promise<DemoData> {
  // Instances starting together on an empty PostgreSQL database: one seeds, the others then find the data.
  return withAdvisoryLock(db, 'sitefile:demo-data', () => ensureDemoDataNow(db, config, now));
}

async function ensureDemoDataNow(db: Db, config: Config, now: Date): Promise<DemoData> {
  if (!(await hasOrganizations(db))) {
    // Loaded only for an empty database: the seed brings the PDF library, which a restart does not need.
    const { seedDatabase } = await import('./seed.js');
    const summary = await seedDatabase(db, createBlobStore(config), {
      scale: 'demo',
      seed: DEMO_SEED,
      now,
    });
    const staffPassword = newStaffPassword();
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
    writeCredentials(config, credentials);
    return {
      ...credentials,
      organizations: summary.organizations.map((o) => ({
        id: o.id,
        name: o.name,
        projects: o.projects.map(({ id, name }) => ({ id, name })),
      })),
    };
  }

  const stored = readCredentials(config);
  const storedClient = stored && (await findClientByClientId(db, stored.client.clientId));
  if (stored && storedClient) {
    const organizations = await organizationsOfClient(db, storedClient.id);
    if (hasEveryRole(stored.users ?? [])) return { ...stored, organizations };
    // A credentials file from before the sign-in accounts were listed: add them and keep the rest.
    const credentials = { ...stored, users: await withEveryRole(db, organizations, stored.users ?? [], now) };
    writeCredentials(config, credentials);
    return { ...credentials, organizations };
  }
  return rotateDemoCredentials(db, config, now);
}

/** A seeded database without (matching) credentials: re-issue the key's secret and the staff password. */
async function rotateDemoCredentials(db: Db, config: Config, now: Date): Promise<DemoData> {
  const clientSecret = newClientSecret();
  let client = await findClientByName(db, DEMO_KEY_NAME, DEMO_STAFF.email);
  if (client) {
    await setClientSecretHash(db, client.id, await hashSecret(clientSecret), now);
  } else {
    const created = await createClient(db, {
      name: DEMO_KEY_NAME,
      description: 'Created at start-up for an existing database; every permission on every organization.',
      permissions: [...permissionKeys],
      orgIds: await allOrganizationIds(db),
      projects: [],
      createdBy: DEMO_STAFF.email,
      secret: clientSecret,
    });
    client = { id: created.id, clientId: created.clientId };
  }

  const staffPassword = newStaffPassword();
  const staff = await findUserByEmail(db, DEMO_STAFF.email);
  if (staff) await setUserPasswordHash(db, staff.id, await hashSecret(staffPassword), now);
  else await createUser(db, { ...DEMO_STAFF, password: staffPassword, staff: true, title: 'Platform support' });

  const organizations = await organizationsOfClient(db, client.id);
  const users: DemoCredentials['users'] = [];
  for (const member of await passwordMembers(
    db,
    organizations.map((o) => o.id),
  )) {
    const password = demoPasswords[member.role];
    if (await verifySecret(member.passwordHash!, password)) {
      users.push({ email: member.email, password, role: member.role, orgId: member.orgId });
    }
  }
  const credentials: DemoCredentials = {
    client: { clientId: client.clientId, clientSecret },
    staff: { email: DEMO_STAFF.email, password: staffPassword },
    users: await withEveryRole(db, organizations, users, now),
  };
  writeCredentials(config, credentials);
  return { ...credentials, organizations };
}

const roles = ['admin', 'member'] as const;
const hasEveryRole = (users: DemoCredentials['users']) => roles.every((role) => users.some((u) => u.role === role));

/**
 * The start banner shows an organization admin's and a member's sign-in: when the database has no working one
 * of a role, a demo account of that role is made (or its password reset) in the first organization.
 */
async function withEveryRole(
  db: Db,
  organizations: { id: string }[],
  users: DemoCredentials['users'],
  now: Date,
): Promise<DemoCredentials['users']> {
  const orgId = organizations[0]?.id;
  if (!orgId) return users;
  const added: DemoCredentials['users'] = [];
  for (const role of roles.filter((r) => !users.some((u) => u.role === r))) {
    const email = demoAccountEmail(role);
    const password = demoPasswords[role];
    const existing = await findUserByEmail(db, email);
    if (existing) {
      await setUserPasswordHash(db, existing.id, await hashSecret(password), now);
      await setMembershipRole(db, orgId, existing.id, role);
    } else {
      await createUser(db, { email, name: DEMO_ACCOUNT_NAMES[role], password, memberships: [{ orgId, role }] });
    }
    added.push({ email, password, role, orgId });
  }
  return [...users, ...added];
}
