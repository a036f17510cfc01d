// Operator CLI: `npm run cli -- <command>`. With --json, stdout carries exactly one JSON object, `{"error": …}`
// on a failure; progress and logs go to stderr; any failure is one line on stderr and exit code 1.
import { Command, CommanderError } from 'commander';
import { addBackupCommands } from './backup-commands.js';
import { addBlobCommands } from './blob-commands.js';
import { addClientCommands } from './client-commands.js';
import { addDatabaseCommands, addDemoCommand } from './database-commands.js';
import { addOrganizationCommands } from './organization-commands.js';
import { addSecretCommands } from './secret-commands.js';
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
  addBlobCommands(program);
  addSecretCommands(program);
  return program;
}

/** Ends a failed run: with --json, the one JSON object a script reads; the line on stderr either way. */
function fail(message: string, printed: boolean): never {
  const line = message
    .replace(/^error: /, '')
    .split('\n')[0]!
    .slice(0, 500);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: line })}\n`);
  if (!printed) process.stderr.write(`error: ${line}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (err) {
    // Commander has already printed its own usage errors; --help and --version exit cleanly.
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) process.exit(0);
      fail(err.message, true);
    }
    // A failed query's own message quotes the whole statement; its cause says what went wrong.
    const error = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    fail(error instanceof Error ? error.message : String(error), false);
  }
}

await main();
