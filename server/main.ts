import { format } from 'node:util';
import pino from 'pino';
import { type Config, ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/connection.js';
import { waitForDatabase } from './db/wait.js';
import type { DemoData } from './seed/demo.js';
import type { RunningServer } from './server.js';

/** The lines `npm start` prints: where things are and, in demo mode only, the demo's sign-ins. */
function startBanner(config: Config, demo: DemoData | undefined): string[] {
  const where = [
    '',
    `Sitefile is running at ${config.publicUrl} (${config.databaseUrl ? 'PostgreSQL' : `embedded PostgreSQL in ${config.dataDir}`})`,
    `  API reference  ${config.publicUrl}/docs`,
    `  Outlook add-in ${config.publicUrl}/addin/   admin console ${config.publicUrl}/admin`,
  ];
  return demo ? [...where, ...demoLines(config, demo), ''] : [...where, ''];
}

function demoLines(config: Config, demo: DemoData): string[] {
  const orgName = (orgId: string) => demo.organizations.find((o) => o.id === orgId)?.name ?? orgId;
  const account = (role: 'admin' | 'member', label: string) => {
    const user = demo.users.find((u) => u.role === role);
    return user ? [`  ${label.padEnd(14)} ${user.email} / ${user.password}   (${orgName(user.orgId)})`] : [];
  };
  return [
    `  Demo API key   client_id=${demo.client.clientId} client_secret=${demo.client.clientSecret}`,
    `  Staff sign-in  ${demo.staff.email} / ${demo.staff.password}`,
    ...account('admin', 'Org admin'),
    ...account('member', 'Member'),
    `  Try: curl -s ${config.publicUrl}/v1/oauth/token -H 'content-type: application/json' -d '{"client_id":"${demo.client.clientId}","client_secret":"${demo.client.clientSecret}"}'`,
  ];
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel });
  // Node's process warnings and libraries' console.warn notices (the S3 client's, one per download) are plain
  // text, which breaks the JSON log stream: they go to the log instead, as warnings.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => log.warn({ warning: { name: warning.name } }, warning.message));
  console.warn = (...args: unknown[]) => log.warn(format(...args));
  if (config.jwtKeyFile)
    log.warn(
      { keyFile: config.jwtKeyFile },
      'JWT_SIGNING_KEY is unset: signing with the key an earlier release kept in this file, so existing tokens, ' +
        'cursors and signed links stay good; set JWT_SIGNING_KEY and JWT_SIGNING_KEY_ID to its "current" entry ' +
        'before a second instance shares this database',
    );
  // Opening the database (without DATABASE_URL: starting the embedded PostgreSQL) and migrating run while the
  // server's modules load: imported here, not at the top, so the two overlap. A PostgreSQL server that is not
  // up yet is waited for (DATABASE_WAIT_SECONDS) while the server already answers: /healthz 200, the rest 503.
  const opening = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pool: config.pool });
  let server: RunningServer | undefined;
  // Stopping is possible from the moment the database opens: a signal that came before the handlers would end
  // the process by its default action and leave the embedded PostgreSQL running (a supervisor or a test may send
  // it the instant the banner appears, before the lines after the banner ran).
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    try {
      await server?.close();
    } finally {
      // Whatever the HTTP side threw, the database (the embedded PostgreSQL with it) is closed before the exit.
      const database = await opening.catch(() => undefined);
      await database?.close().catch((err) => log.error({ err }, 'closing the database failed'));
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  try {
    const migrated = opening.then((database) =>
      waitForDatabase(() => database.migrate(), { waitSeconds: config.databaseWaitSeconds, log }),
    );
    // Awaited below; until then a failure must not count as unhandled (which would end the process with a trace).
    migrated.catch(() => {});
    const [{ prepareDemo }, { startServer }] = await Promise.all([import('./seed/demo.js'), import('./server.js')]);
    const database = await opening;
    let ready = false;
    server = await startServer({ config, db: database.db, log, isReady: () => ready });
    await migrated;
    // The first start on a DATA_DIR of an earlier version (its database in DATA_DIR/pg): the database comes along.
    let imported: string | undefined;
    if (!config.databaseUrl) {
      const { importEarlierDatabase } = await import('./db/import-earlier.js');
      imported = await importEarlierDatabase(config.dataDir, database, new Date());
      if (imported) {
        process.stdout.write(`Imported the database of an earlier version; its directory is kept as ${imported}\n`);
      }
    }
    const { demo, warnings } = await prepareDemo(database.db, config, new Date(), imported);
    for (const warning of warnings) log.warn(warning);
    ready = true;
    process.stdout.write(`${startBanner(config, demo).join('\n')}\n`);
  } catch (err) {
    // A stop asked during start-up closes the database under the steps still running: their failure is the
    // stop's, which ends the process itself.
    if (stopping) return;
    throw err;
  }
}

main().catch((err) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
