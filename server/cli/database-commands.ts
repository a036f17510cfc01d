// Commands that manage the database as a whole: migrations, the seed and the demo data.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { createBlobStore } from '../blobs/configured.js';
import { ensureDemoData } from '../seed/demo.js';
import type { SeedScale } from '../seed/seed.js';
import { CliError, runSeed } from './seed.js';
import { output, withDatabase } from './session.js';

function parseSeed(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new InvalidArgumentError('must be a whole number from 0 to 999999999.');
  return Number(value);
}

/** `migrate` and `seed`. */
export function addDatabaseCommands(program: Command): void {
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
        runSeed(db, createBlobStore(config), { scale: opts.scale, seed: opts.seed }),
      );
      output(opts.json, summary, `Seeded ${summary.totalRows} rows`);
    });
}

export function addDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('seed the demo data into an empty database (or find it) and print its IDs and credentials')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { json?: boolean }) => {
      const demo = await withDatabase(({ db, config }) => ensureDemoData(db, config));
      if (!demo) throw new CliError('The database holds organizations that are not the demo data: no demo was added');
      const lines = [
        ...demo.organizations.flatMap((o) => [`${o.id}  ${o.name}`, ...o.projects.map((p) => `  ${p.id}  ${p.name}`)]),
        `Demo API key  client_id=${demo.client.clientId} client_secret=${demo.client.clientSecret}`,
        `Staff login   ${demo.staff.email} / ${demo.staff.password}`,
        ...demo.users.map((u) => `${u.role.padEnd(6)} login  ${u.email} / ${u.password} (${u.orgId})`),
      ];
      output(opts.json, demo, lines.join('\n'));
    });
}
