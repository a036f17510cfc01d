import type { Command } from 'commander';
import { CreateProjectBody, UpdateProjectBody } from '../../shared/organizations.js';
import { commandLineActor } from '../audit/service.js';
import { relearnOrganizations } from '../filing/service.js';
import { createOrganization, createProject, updateProject } from '../organizations/service.js';
import { collect, output, parseBody, withDatabase } from './session.js';

/** `org create`, `project create` and `project update`. */
export function addOrganizationCommands(program: Command): void {
  const org = program.command('org').description('organizations');
  org
    .command('create')
    .requiredOption('--name <name>', 'organization name')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { name: string; json?: boolean }) => {
      const created = await withDatabase(({ db }) => createOrganization(db, { name: opts.name }));
      output(opts.json, created, `Created organization ${created.id} ${created.name}`);
    });
  org
    .command('relearn-suggestions')
    .description("rebuild the suggestion model from the organization's filed e-mail (every organization without --org)")
    .option('--org <orgId>', 'only this organization (repeatable)', collect, undefined)
    .option('--json', 'print the result as JSON')
    .action(async (opts: { org?: string[]; json?: boolean }) => {
      const relearned = await withDatabase(({ db }) => relearnOrganizations(db, opts.org));
      const lines = relearned.map((r) => `${r.organizationId}  ${r.emails} filed e-mails learned`);
      output(opts.json, { organizations: relearned }, lines.join('\n') || 'No organization has filed e-mail');
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
      const created = await withDatabase(({ db }) =>
        createProject(db, { organizationId: opts.org, ...body }, commandLineActor()),
      );
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
          updateProject(db, { organizationId: opts.org, projectId: opts.id }, body, commandLineActor()),
        );
        output(opts.json, updated, `Updated project ${updated.id} ${updated.name}`);
      },
    );
}
