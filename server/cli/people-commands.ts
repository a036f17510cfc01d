import type { Command } from 'commander';
import pino from 'pino';
import { commandLineActor } from '../audit/service.js';
import { createLocalBus, createRedisBus } from '../cache/bus.js';
import { systemClock } from '../clock.js';
import { findUserByEmail } from '../users/queries.js';
import { changeMemberRole, type PeopleDeps, removeMember, setUserDisabled } from '../users/service.js';
import { CliError } from './seed.js';
import { output, type Session, withDatabase } from './session.js';

/**
 * A change to a person, made with the same service as the API. With REDIS_URL set the running servers hear of it
 * on the bus and apply it from the next request on; without Redis they apply it within AUTH_CACHE_TTL_SECONDS.
 */
async function changePerson<T>(email: string, change: (deps: PeopleDeps, userId: string) => Promise<T>) {
  return withDatabase(async ({ db, config }: Session) => {
    const person = await findUserByEmail(db, email);
    if (!person) throw new CliError(`No user with e-mail ${email}`);
    const log = pino({ level: config.logLevel }, pino.destination(2));
    const bus = config.redisUrl ? createRedisBus(config.redisUrl, log) : createLocalBus();
    try {
      return await change({ db, bus, clock: systemClock }, person.id);
    } finally {
      await bus.close();
    }
  });
}

const role = (value: string): 'admin' | 'member' => {
  if (value !== 'admin' && value !== 'member') throw new CliError(`--role must be admin or member, got ${value}`);
  return value;
};

/** `user disable`, `user enable`, `user role` and `user remove-membership`: what staff do in the admin API. */
export function addPeopleCommands(user: Command): void {
  for (const [name, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    user
      .command(name)
      .description(disabled ? 'disable a person: no sign-in, every token refused' : 'enable a disabled person again')
      .requiredOption('--email <email>', 'the person')
      .option('--json', 'print the result as JSON')
      .action(async (opts: { email: string; json?: boolean }) => {
        const person = await changePerson(opts.email, (deps, userId) =>
          setUserDisabled(deps, userId, disabled, commandLineActor()),
        );
        output(opts.json, person, `${disabled ? 'Disabled' : 'Enabled'} user ${person.id} ${person.email}`);
      });
  }
  user
    .command('role')
    .description("change a person's role in an organization")
    .requiredOption('--email <email>', 'the person')
    .requiredOption('--org <orgId>', 'the organization')
    .requiredOption('--role <role>', 'admin or member', role)
    .option('--json', 'print the result as JSON')
    .action(async (opts: { email: string; org: string; role: 'admin' | 'member'; json?: boolean }) => {
      const member = await changePerson(opts.email, (deps, userId) =>
        changeMemberRole(deps, opts.org, userId, opts.role, commandLineActor()),
      );
      output(opts.json, member, `${member.email} is now ${member.role} of ${opts.org}`);
    });
  user
    .command('remove-membership')
    .description('remove a person from an organization and its projects')
    .requiredOption('--email <email>', 'the person')
    .requiredOption('--org <orgId>', 'the organization')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { email: string; org: string; json?: boolean }) => {
      await changePerson(opts.email, (deps, userId) => removeMember(deps, opts.org, userId, commandLineActor()));
      output(opts.json, { removed: true }, `Removed ${opts.email} from ${opts.org}`);
    });
}
