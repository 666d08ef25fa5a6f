import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { invalid } from '@app/domain';
import { DomainException } from '../command-handling';

/**
 * Where a webhook may point (decisions §9): only public unicast addresses, unless
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS. ipaddr.js names the special ranges (loopback, private,
 * link-local, carrier-grade NAT, unique local, multicast, reserved, 6to4/Teredo tunnels…); anything
 * but `unicast` is refused, and IPv4-mapped IPv6 is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== 'unicast') return false;
  // ipaddr.js calls IPv4-compatible forms (::127.0.0.1) and other unassigned IPv6 space "unicast";
  // only 2000::/3 is routed on the internet, so every other IPv6 form is refused.
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

export type Resolve = (host: string) => Promise<readonly string[]>;

export const resolveAll: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    ),
  );

/** URL hosts of IPv6 literals come bracketed. */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks the host of an https URL at creation or update. A host that resolves to any non-public
 * address is refused; one that does not resolve (yet) is accepted, because every delivery checks
 * again where the name points at that moment (DNS rebinding).
 */
export async function refusePrivateDestination(
  url: string,
  allowPrivate: boolean,
  resolve: Resolve = resolveAll,
): Promise<void> {
  if (allowPrivate) return;
  const host = bareHost(new URL(url).hostname);
  let addresses: readonly string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return;
    }
  }
  if (addresses.some((a) => !isPublicAddress(a))) {
    throw new DomainException(
      invalid('url', 'url must not point to a loopback, private or otherwise non-public address'),
    );
  }
}

export class PrivateDestinationError extends Error {
  constructor(host: string, address: string) {
    super(`refused: ${host} resolves to non-public address ${address}`);
    this.name = 'PrivateDestinationError';
  }
}

/**
 * A `lookup` for the delivery socket: the addresses it connects to are the ones checked, so a
 * name that flips to a private address between check and connect is still refused.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, found: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = allowPrivate ? undefined : found.find((a) => !isPublicAddress(a.address));
      if (refused)
        return callback(new PrivateDestinationError(hostname, refused.address) as NodeJS.ErrnoException, '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, found);
      return callback(null, found[0].address, found[0].family);
    });
  };
}

/** The delivery-time check for IP-literal hosts, which never go through `lookup`. */
export function refuseLiteralDestination(url: URL, allowPrivate: boolean): void {
  const host = bareHost(url.hostname);
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) throw new PrivateDestinationError(host, host);
}
