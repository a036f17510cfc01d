// Operator CLI: `npm run cli -- <command>`. With --json, stdout carries exactly one JSON object;
// progress and logs go to stderr; any failure is one line on stderr and exit code 1.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import { CreateProjectBody, UpdateProjectBody } from '../../shared/organizations.js';
import { isPermission, permissionKeys } from '../../shared/permissions.js';
import { loadKeyRing } from '../auth/keys.js';
import { createTokenService } from '../auth/tokens.js';
import { createClient } from '../clients/service.js';
import { systemClock } from '../clock.js';
import { type Config, loadConfig } from '../config.js';
import { type Db, openDatabase } from '../db/client.js';
import { createOrganization, createProject, updateProject } from '../organizations/service.js';
import { ensureDemoData } from '../seed/demo.js';
import type { SeedScale } from '../seed/seed.js';
import { findUserByEmail } from '../users/queries.js';
import { createUser } from '../users/service.js';
import { CliError, runSeed } from './seed.js';

/** Who the CLI records as the creator of what it makes. */
const CLI_CREATOR = 'cli@sitefile.local';
const USER_TOKEN_LIFETIME_SECONDS = 3600;

// Libraries (PGlite notices, drizzle) may write to the console; keep stdout for the one JSON result.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

interface Session {
  config: Config;
  db: Db;
}

/** Config, database and migrations for one command; the database is closed afterwards. */
async function withDatabase<T>(run: (session: Session) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    return await run({ config, db: database.db });
  } finally {
    await database.close();
  }
}

/** The JSON object with --json, otherwise readable lines. */
function output(json: boolean | undefined, value: object, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** The same validation as the API body: one message per problem, as a CLI error. */
function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new CliError(parsed.error.issues.map((i) => `--${String(i.path[0] ?? 'input')} ${i.message}`).join('; '));
}

function parseSeed(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new InvalidArgumentError('must be a whole number from 0 to 999999999.');
  return Number(value);
}

function parsePermissions(value: string): string[] {
  if (value === 'all') return [...permissionKeys];
  const keys = value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = keys.filter((k) => !isPermission(k));
  if (keys.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(
      `unknown permission keys: ${unknown.join(', ') || '(none)'}; use all or ${permissionKeys.join(',')}.`,
    );
  }
  return keys;
}

function parseProjectScope(value: string): { orgId: string; projectId: string } {
  const [orgId, projectId, ...rest] = value.split(':');
  if (!orgId || !projectId || rest.length > 0) throw new CliError(`--project must be ORG_ID:PROJECT_ID, got ${value}`);
  return { orgId, projectId };
}

function parseMembership(value: string): { orgId: string; role: 'admin' | 'member' } {
  const [orgId, role = 'member', ...rest] = value.split(':');
  if (!orgId || (role !== 'admin' && role !== 'member') || rest.length > 0) {
    throw new CliError(`--org must be ORG_ID or ORG_ID:admin or ORG_ID:member, got ${value}`);
  }
  return { orgId, role };
}

function buildProgram(): Command {
  const program = new Command('sitefile')
    .description('Sitefile operator commands (reads DATABASE_URL and DATA_DIR like the server)')
    .exitOverride();

  program
    .command('migrate')
    .description('apply database migrations')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { json?: boolean }) => {
      await withDatabase(async () => {});
      output(opts.json, { migrated: true }, 'Migrations applied');
    });

  program
    .command('seed')
    .description('fill an empty database with realistic, deterministic data')
    .addOption(new Option('--scale <scale>', 'data volume').choices(['demo', 'large']).makeOptionMandatory())
    .option('--seed <n>', 'random seed (same seed, same data)', parseSeed, 1)
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { scale: SeedScale; seed: number; json?: boolean }) => {
      const summary = await withDatabase(({ db, config }) =>
        runSeed(db, config.dataDir, { scale: opts.scale, seed: opts.seed }),
      );
      output(opts.json, summary, `Seeded ${summary.totalRows} rows`);
    });

  const org = program.command('org').description('organizations');
  org
    .command('create')
    .requiredOption('--name <name>', 'organization name')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { name: string; json?: boolean }) => {
      const created = await withDatabase(({ db }) => createOrganization(db, { name: opts.name }));
      output(opts.json, created, `Created organization ${created.id} ${created.name}`);
    });

  const project = program.command('project').description('projects');
  project
    .command('create')
    .requiredOption('--org <orgId>', 'owning organization ID')
    .requiredOption('--name <name>', 'project name')
    .option('--code <code>', 'project or job number (default: a job number at the start of the name)')
    .option('--alias <alias>', 'another name people use for the project (repeatable)', collect, [])
    .option('--json', 'print the result as JSON')
    .action(async (opts: { org: string; name: string; code?: string; alias: string[]; json?: boolean }) => {
      const body = parseBody(CreateProjectBody, { name: opts.name, code: opts.code, aliases: opts.alias });
      const created = await withDatabase(({ db }) => createProject(db, { organizationId: opts.org, ...body }));
      output(opts.json, created, `Created project ${created.id} ${created.name} in ${created.organizationId}`);
    });
  project
    .command('update')
    .description('rename a project or set its code and aliases')
    .requiredOption('--org <orgId>', 'owning organization ID')
    .requiredOption('--id <projectId>', 'the project')
    .option('--name <name>', 'new name')
    .option('--code <code>', 'new project or job number')
    .option('--no-code', 'remove the code')
    .option('--alias <alias>', 'replaces the aliases with these (repeatable)', collect, undefined)
    .option('--no-alias', 'remove every alias')
    .option('--json', 'print the result as JSON')
    .action(
      async (opts: {
        org: string;
        id: string;
        name?: string;
        code?: string | false;
        alias?: string[] | false;
        json?: boolean;
      }) => {
        const body = parseBody(UpdateProjectBody, {
          ...(opts.name !== undefined ? { name: opts.name } : {}),
          ...(opts.code !== undefined ? { code: opts.code === false ? null : opts.code } : {}),
          ...(opts.alias !== undefined ? { aliases: opts.alias === false ? [] : opts.alias } : {}),
        });
        const updated = await withDatabase(({ db }) =>
          updateProject(db, { organizationId: opts.org, projectId: opts.id }, body),
        );
        output(opts.json, updated, `Updated project ${updated.id} ${updated.name}`);
      },
    );

  const client = program.command('client').description('OAuth clients (API keys)');
  client
    .command('create')
    .requiredOption('--name <name>', 'key name')
    .requiredOption('--permissions <keys>', `all, or a comma list of ${permissionKeys.join(',')}`, parsePermissions)
    .option('--org <orgId>', 'organization scope (repeatable)', collect, [])
    .option('--project <orgId:projectId>', 'project scope (repeatable)', collect, [])
    .option('--superadmin', 'may create keys for any scope')
    .option('--json', 'print the result as JSON')
    .action(
      async (opts: {
        name: string;
        permissions: string[];
        org: string[];
        project: string[];
        superadmin?: boolean;
        json?: boolean;
      }) => {
        const projects = opts.project.map(parseProjectScope);
        const created = await withDatabase(({ db }) =>
          createClient(db, {
            name: opts.name,
            permissions: opts.permissions,
            orgIds: opts.org,
            projects,
            superadmin: opts.superadmin ?? false,
            createdBy: CLI_CREATOR,
          }),
        );
        output(opts.json, created, `client_id=${created.clientId}\nclient_secret=${created.client_secret}`);
      },
    );

  const user = program.command('user').description('users');
  user
    .command('create')
    .requiredOption('--email <email>', 'sign-in e-mail')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--password <password>', 'password')
    .option('--staff', 'platform staff (opens /v1/admin/*)')
    .option('--org <orgId[:role]>', 'membership, role admin or member (repeatable)', collect, [])
    .option('--json', 'print the result as JSON')
    .action(
      async (opts: {
        email: string;
        name: string;
        password: string;
        staff?: boolean;
        org: string[];
        json?: boolean;
      }) => {
        const memberships = opts.org.map(parseMembership);
        if (!/^[^@\s]+@[^@\s]+$/.test(opts.email))
          throw new CliError(`--email is not an e-mail address: ${opts.email}`);
        if (opts.password.length < 8) throw new CliError('--password must be at least 8 characters');
        const created = await withDatabase(({ db }) =>
          createUser(db, {
            email: opts.email,
            name: opts.name,
            password: opts.password,
            staff: opts.staff ?? false,
            memberships,
          }),
        );
        output(opts.json, created, `Created user ${created.id} ${created.email}${created.staff ? ' (staff)' : ''}`);
      },
    );
  user
    .command('token')
    .description('sign a one-hour access token for a user (operator scripting)')
    .requiredOption('--email <email>', 'the user')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { email: string; json?: boolean }) => {
      const token = await withDatabase(async ({ db, config }) => {
        const found = await findUserByEmail(db, opts.email);
        if (!found) throw new CliError(`No user with e-mail ${opts.email}`);
        const tokens = createTokenService({
          keys: loadKeyRing({ dataDir: config.dataDir, fixed: config.jwtSigningKey }),
          clock: systemClock,
          publicUrl: config.publicUrl,
        });
        return tokens.sign(found.id, 'user', { lifetimeSeconds: USER_TOKEN_LIFETIME_SECONDS });
      });
      output(opts.json, { access_token: token.token, token_type: 'Bearer', expires_in: token.expiresIn }, token.token);
    });

  program
    .command('demo')
    .description('seed the demo data when the database is empty and print its IDs and credentials')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { json?: boolean }) => {
      const demo = await withDatabase(({ db, config }) => ensureDemoData(db, config));
      const lines = [
        ...demo.organizations.flatMap((o) => [`${o.id}  ${o.name}`, ...o.projects.map((p) => `  ${p.id}  ${p.name}`)]),
        `Demo API key  client_id=${demo.client.clientId} client_secret=${demo.client.clientSecret}`,
        `Staff login   ${demo.staff.email} / ${demo.staff.password}`,
        ...demo.users.map((u) => `${u.role.padEnd(6)} login  ${u.email} / ${u.password} (${u.orgId})`),
      ];
      output(opts.json, demo, lines.join('\n'));
    });

  return program;
}

async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (err) {
    // Commander has already printed its own usage errors; --help and --version exit cleanly.
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 1);
    // A failed query's own message quotes the whole statement; its cause says what went wrong.
    const error = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message.split('\n')[0]!.slice(0, 500)}\n`);
    process.exit(1);
  }
}

await main();
