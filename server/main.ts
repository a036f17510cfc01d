import pino from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { ensureDemoData } from './seed/demo.js';
import { startServer } from './server.js';

async function main() {
  let config: ReturnType<typeof loadConfig>;
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
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const demo = await ensureDemoData(database.db, config);
  const server = await startServer({ config, db: database.db, log, host: '0.0.0.0' });

  const lines = [
    '',
    `Sitefile is running at ${config.publicUrl} (${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`,
    `  API reference  ${config.publicUrl}/docs`,
    `  Outlook add-in ${config.publicUrl}/addin/   admin console ${config.publicUrl}/admin`,
    `  Demo API key   client_id=${demo.client.clientId} client_secret=${demo.client.clientSecret}`,
    `  Staff sign-in  ${demo.staff.email} / ${demo.staff.password}`,
    `  Try: curl -s ${config.publicUrl}/v1/oauth/token -H 'content-type: application/json' -d '{"client_id":"${demo.client.clientId}","client_secret":"${demo.client.clientSecret}"}'`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await server.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
