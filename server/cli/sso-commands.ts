import type { Command } from 'commander';
import { commandLineActor } from '../audit/service.js';
import { loadKeyRing } from '../auth/keys.js';
import { systemClock } from '../clock.js';
import { cursorKeyFrom } from '../cursor.js';
import { resealSsoSecrets, verifySsoDomain } from '../sso/service.js';
import { output, withDatabase } from './session.js';

/** Staff commands for single sign-on: approving a domain, re-sealing client secrets after a key change. */
export function addSsoCommands(program: Command): void {
  program
    .command('verify-domain')
    .description(
      "mark a domain of an organization's identity provider verified (staff approval, recorded in its audit log); " +
        'admins who can publish DNS records verify it themselves with the TXT record',
    )
    .requiredOption('--org <orgId>', 'the organization')
    .requiredOption('--domain <domain>', 'the e-mail domain, as on its single sign-on connection')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { org: string; domain: string; json?: boolean }) => {
      const verified = await withDatabase(({ db, config }) =>
        verifySsoDomain({ db, clock: systemClock, config }, opts.org, opts.domain, 'operator', commandLineActor()),
      );
      output(
        opts.json,
        verified,
        `${verified.domain} is verified for ${opts.org} (by ${verified.verifiedBy}, ${verified.verifiedAt})`,
      );
    });

  // After putting a new key first in SECRETS_KEYS, before dropping the old one.
  program
    .command('reseal-secrets')
    .description('re-seal every stored secret (SSO client secrets) under the first key of SECRETS_KEYS')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { json?: boolean }) => {
      const result = await withDatabase(({ config, db }) => {
        // The key secrets were sealed with before SECRETS_KEYS: derived from the signing secret, as the server does.
        const cursorKey = cursorKeyFrom(
          loadKeyRing({ dataDir: config.dataDir, fixed: config.jwtSigningKey }).current.secret,
        );
        return resealSsoSecrets({ db, config, cursorKey, clock: systemClock }, commandLineActor());
      });
      const unreadable = result.unreadable.length
        ? `; no configured key opens the client secret of ${result.unreadable.join(', ')}: their admins must enter it again`
        : '';
      output(
        opts.json,
        result,
        `Re-sealed ${result.resealed} stored secret(s) under the first key of SECRETS_KEYS${unreadable}`,
      );
    });
}
