// Operator CLI: `npm run cli -- <command>`. With --json, stdout carries exactly one JSON object;
// progress and logs go to stderr; any failure is one line on stderr and exit code 1.
import { Command, CommanderError } from 'commander';
import { addBackupCommands } from './backup-commands.js';
import { addClientCommands } from './client-commands.js';
import { addDatabaseCommands, addDemoCommand } from './database-commands.js';
import { addOrganizationCommands } from './organization-commands.js';
import { addUserCommands } from './user-commands.js';

// Libraries (drizzle) may write to the console; keep stdout for the one JSON result.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

function buildProgram(): Command {
  const program = new Command('sitefile')
    .description('Sitefile operator commands (reads DATABASE_URL and DATA_DIR like the server)')
    .exitOverride();
  // Registered in the order --help lists them.
  addDatabaseCommands(program);
  addOrganizationCommands(program);
  addClientCommands(program);
  addUserCommands(program);
  addDemoCommand(program);
  addBackupCommands(program);
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
