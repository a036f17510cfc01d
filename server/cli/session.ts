// What every CLI command shares: a database session, the output convention and option parsers.
import type { z } from 'zod';
import { type Config, loadConfig } from '../config.js';
import { type Db, openDatabase } from '../db/connection.js';
import { CliError } from './seed.js';

export interface Session {
  config: Config;
  db: Db;
}

/** Config, database and migrations for one command; the database is closed afterwards. */
export async function withDatabase<T>(run: (session: Session) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    return await run({ config, db: database.db });
  } finally {
    await database.close();
  }
}

/** The JSON object with --json, otherwise readable lines. */
export function output(json: boolean | undefined, value: object, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

/** Commander's accumulator for a repeatable option. */
export const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** The same validation as the API body: one message per problem, as a CLI error. */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new CliError(parsed.error.issues.map((i) => `--${String(i.path[0] ?? 'input')} ${i.message}`).join('; '));
}
