import { lookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** IPv6's global unicast block. Outside it lie the IPv4-compatible (::/96), NAT64 local-use (64:ff9b:1::/48) and
 *  site-local (fec0::/10) forms, which ipaddr.js calls plain 'unicast' but which reach no public host. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Loopback, private, link-local, carrier-grade NAT, multicast, reserved, NAT64, 6to4…: anything but a public
 *  unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address is judged as its IPv4 address
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || parsed.match(GLOBAL_UNICAST_V6);
}

export class BlockedAddressError extends Error {}

/** `dns.lookup` that refuses a host resolving to a non-public address (checked at connect time, so a DNS answer
 *  that changes between the check and the request — rebinding — is refused too). */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    // The message names no address: what an internal DNS answers is not the caller's to learn.
    if (blocked) return callback(new BlockedAddressError(`${hostname} resolves to a non-public address`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};

/** Why a URL may not receive webhooks (a literal or resolved non-public address), or undefined when it may. */
export async function addressRefusal(url: string): Promise<string | undefined> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host) ? undefined : `${host} is not a public address`;
  return new Promise((resolve) => {
    publicOnlyLookup(host, { all: true }, (err) => {
      if (err instanceof BlockedAddressError) resolve(err.message);
      else if (err) resolve(`${host} cannot be resolved`);
      else resolve(undefined);
    });
  });
}

export interface PostOutcome {
  status: number | null;
  error: string | null;
}

/**
 * POSTs a JSON body and answers the status, or the error when there was no answer (refused, timed out, blocked).
 * The response body is read and dropped (at most what arrives before the timeout).
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivateNetworks: boolean },
): Promise<PostOutcome> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivateNetworks && isIP(host) && !isPublicAddress(host)) {
    return { status: null, error: `Refused: ${host} is not a public address` };
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: options.allowPrivateNetworks ? undefined : publicOnlyLookup,
        signal: AbortSignal.timeout(options.timeoutMs),
        agent: false,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? null, error: null }));
        response.on('error', () => resolve({ status: response.statusCode ?? null, error: null }));
      },
    );
    request.on('error', (err) => {
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
      resolve({
        status: null,
        error: timedOut
          ? `Timed out after ${options.timeoutMs} ms`
          : `${err instanceof BlockedAddressError ? 'Refused: ' : ''}${err.message}`,
      });
    });
    request.end(body);
  });
}
