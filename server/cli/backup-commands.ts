// `backup` and `restore` of the embedded mode (server/cli/backup.ts).
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { backup, restore } from './backup.js';
import { output } from './session.js';

export function addBackupCommands(program: Command): void {
  program
    .command('backup')
    .description('write the embedded database, blobs and keys of DATA_DIR to one file (server stopped)')
    .requiredOption('--out <file>', 'the backup file to write (.tar.gz)')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { out: string; json?: boolean }) => {
      const summary = await backup(loadConfig(), opts.out, new Date());
      output(
        opts.json,
        summary,
        `Backed up ${summary.blobs} blobs, ${summary.keys.length} key files and the database to ${summary.file}`,
      );
    });

  program
    .command('restore')
    .description('make DATA_DIR (empty or new) from a backup file')
    .requiredOption('--from <file>', 'the backup file to read')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { from: string; json?: boolean }) => {
      const summary = await restore(loadConfig(), opts.from);
      output(opts.json, summary, `Restored the backup of ${summary.createdAt} (${summary.blobs} blobs) into DATA_DIR`);
    });
}
