import type { Command } from 'commander';
import { commandLineActor } from '../audit/service.js';
import { loadKeyRing } from '../auth/keys.js';
import { systemClock } from '../clock.js';
import { cursorKeyFrom } from '../cursor.js';
import { resealSsoSecrets } from '../sso/service.js';
import { output, withDatabase } from './session.js';

/** `reseal-secrets`: after putting a new key first in SECRETS_KEYS, before dropping the old one. */
export function addSecretCommands(program: Command): void {
  program
    .command('reseal-secrets')
    .description('re-seal every stored secret (SSO client secrets) under the first key of SECRETS_KEYS')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { json?: boolean }) => {
      const resealed = await withDatabase(({ config, db }) => {
        // The key secrets were sealed with before SECRETS_KEYS: derived from the signing secret, as the server does.
        const cursorKey = cursorKeyFrom(
          loadKeyRing({ dataDir: config.dataDir, fixed: config.jwtSigningKey }).current.secret,
        );
        return resealSsoSecrets({ db, config, cursorKey, clock: systemClock }, commandLineActor());
      });
      output(opts.json, { resealed }, `Re-sealed ${resealed} stored secret(s) under the first key of SECRETS_KEYS`);
    });
}
