import type { Command } from 'commander';
import { commandLineActor } from '../audit/service.js';
import { systemClock } from '../clock.js';
import { verifySsoDomain } from '../sso/service.js';
import { output, withDatabase } from './session.js';

/** `verify-domain`: staff approve an organization's single sign-on domain without its DNS record. */
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
}
