import ipaddr from 'ipaddr.js';
import { invalid, type DomainError } from '@app/domain';
import type { Mode } from '@app/platform/event-store/event-mode';
import { isPublicAddress } from '../../webhooks/destination';

const FIELD = 'intent_action.return_url';

/**
 * Names that stand for the customer's own machine or home network, never a merchant's public
 * site: `localhost` (RFC 6761), mDNS `.local` (RFC 6762), `.home.arpa` (RFC 8375) and ICANN's
 * private-use `.internal`. A name without a dot is one too (an intranet name).
 */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.home.arpa', '.internal'];

type HostKind = 'public' | 'loopback' | 'private';

/**
 * Where the customer's browser is sent after 3-D Secure (decisions/collections.md, "return_url"):
 * live needs https and a public host; sandbox takes that too, and also http or https on
 * localhost or a loopback address, so a developer can finish a test payment on their own machine.
 * Private, link-local and every other non-public range (the ranges the webhook URL check refuses,
 * through the same `isPublicAddress`) are refused in both modes, and so are credentials in the URL.
 * The server never fetches this URL, the browser does: names are judged as written, not resolved.
 */
export function refuseReturnUrl(value: string, mode: Mode): DomainError | null {
  if (!URL.canParse(value)) return invalid(FIELD, 'return_url must be an http or https URL');
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return invalid(FIELD, 'return_url must be an http or https URL');
  if (url.username || url.password) return invalid(FIELD, 'return_url must not carry a user name or password');
  const kind = hostKind(url.hostname);
  if (mode === 'sandbox' && kind === 'loopback') return null;
  if (url.protocol !== 'https:') {
    return invalid(
      FIELD,
      mode === 'sandbox'
        ? 'return_url must be an https URL (http only for localhost or a loopback address in sandbox)'
        : 'return_url must be an https URL',
    );
  }
  if (kind !== 'public') {
    return invalid(
      FIELD,
      mode === 'sandbox'
        ? 'return_url must not point to a private or otherwise non-public address (sandbox allows localhost and loopback)'
        : 'return_url must not point to a loopback, private or otherwise non-public address',
    );
  }
  return null;
}

/** The URL parser has already normalized the host (`0x7f.1` is `127.0.0.1`, IPv6 is bracketed). */
function hostKind(hostname: string): HostKind {
  const host = hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (ipaddr.isValid(host)) {
    if (ipaddr.process(host).range() === 'loopback') return 'loopback';
    return isPublicAddress(host) ? 'public' : 'private';
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (!host.includes('.') || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'private';
  return 'public';
}
