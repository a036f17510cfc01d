import { type Command, InvalidArgumentError } from 'commander';
import { isPermission, permissionKeys } from '../../shared/permissions.js';
import { createClient } from '../api-keys/service.js';
import { commandLineActor } from '../audit/service.js';
import { CliError } from './seed.js';
import { collect, output, withDatabase } from './session.js';

/** Who the CLI records as the creator of what it makes. */
const CLI_CREATOR = 'cli@sitefile.local';

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

/** `client create`: an API key with its permissions and scopes. */
export function addClientCommands(program: Command): void {
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
          createClient(
            db,
            {
              name: opts.name,
              permissions: opts.permissions,
              orgIds: opts.org,
              projects,
              superadmin: opts.superadmin ?? false,
              createdBy: CLI_CREATOR,
            },
            commandLineActor(),
          ),
        );
        output(opts.json, created, `client_id=${created.clientId}\nclient_secret=${created.client_secret}`);
      },
    );
}
