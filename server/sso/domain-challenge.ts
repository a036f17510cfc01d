// Proof that an organization owns an e-mail domain: a TXT record its admin publishes under the domain.
import { Resolver } from 'node:dns/promises';
import { ApiError } from '../errors.js';

/** A name of our own under the domain: publishing it touches none of the domain's other records (its SPF or other
 *  services' verification strings at the apex), and only someone who controls the domain's DNS can. */
export const challengeName = (domain: string) => `_sitefile-challenge.${domain}`;
export const challengeValue = (token: string) => `sitefile-verification=${token}`;

/** DNS answers that mean "there is no such record" rather than "DNS could not be asked". */
const absent = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * The TXT strings published at the domain's challenge name ([] when there are none), asked of `servers` (the
 * system's resolvers when unset). A resolver that cannot be reached or fails is a 503 naming the reason.
 */
export async function challengeRecords(servers: string[] | undefined, domain: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (servers) resolver.setServers(servers);
  try {
    // A long TXT record comes as several strings of up to 255 bytes: they are one value.
    return (await resolver.resolveTxt(challengeName(domain))).map((strings) => strings.join(''));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
    if (absent.has(code)) return [];
    throw new ApiError(
      'service_unavailable',
      `The DNS lookup of ${challengeName(domain)} failed (${code}). Try again later.`,
    );
  }
}
