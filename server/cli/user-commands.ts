import type { Command } from 'commander';
import { loadKeyRing } from '../auth/keys.js';
import { createTokenService } from '../auth/tokens.js';
import { systemClock } from '../clock.js';
import { findUserByEmail } from '../users/queries.js';
import { createUser } from '../users/service.js';
import { addPeopleCommands } from './people-commands.js';
import { CliError } from './seed.js';
import { collect, output, withDatabase } from './session.js';

const USER_TOKEN_LIFETIME_SECONDS = 3600;

function parseMembership(value: string): { orgId: string; role: 'admin' | 'member' } {
  const [orgId, role = 'member', ...rest] = value.split(':');
  if (!orgId || (role !== 'admin' && role !== 'member') || rest.length > 0) {
    throw new CliError(`--org must be ORG_ID or ORG_ID:admin or ORG_ID:member, got ${value}`);
  }
  return { orgId, role };
}

/** `user create`, `user token` and the people commands (`people-commands.ts`). */
export function addUserCommands(program: Command): void {
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
  addPeopleCommands(user);
}
