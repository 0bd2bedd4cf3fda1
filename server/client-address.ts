// The client's address behind a load balancer (TRUSTED_PROXIES). Without it every request's client is its
// direct peer, so behind a proxy all sign-ins would share the proxy's address (one throttle for everyone) while a
// client that forges X-Forwarded-For must never pick its own address. The rule: X-Forwarded-For is read only when the
// direct peer is a trusted proxy, from its right end (what the nearest proxy appended) leftwards, skipping hops that
// are trusted proxies themselves; the first address that is not is the client. A malformed hop ends the walk at the
// last trusted hop. TRUSTED_PROXIES is a comma-separated list of addresses and CIDR ranges (IPv4 and IPv6), e.g.
// `10.0.0.0/8, 192.168.1.10, fd00::/8`; `loopback` stands for 127.0.0.0/8 and ::1. Unset: the header is ignored.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BlockList, isIP } from 'node:net';

export type TrustedProxies = { check: (address: string) => boolean; empty: boolean; describe: string };

export class TrustedProxiesError extends Error {}

/** An IPv4 address in IPv6 form (::ffff:10.0.0.1, as a dual-stack socket reports it) in its IPv4 form. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) throw new TrustedProxiesError(`TRUSTED_PROXIES: "${entry}" is not an address or a CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const bits = Number(prefix);
    if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128))
      throw new TrustedProxiesError(`TRUSTED_PROXIES: "${entry}" has an invalid prefix length`);
    list.addSubnet(address, bits, type);
  }
  return {
    empty: entries.length === 0,
    describe: entries.length === 0 ? 'none (X-Forwarded-For ignored)' : entries.join(', '),
    check: (candidate) => {
      const address = plainAddress(candidate);
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** The client's address from the direct peer and the X-Forwarded-For header(s), by the rule at the top. */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedProxies): string {
  if (!peer) return 'unknown';
  const direct = plainAddress(peer);
  if (trusted.empty || !trusted.check(direct) || forwardedFor === undefined) return direct;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  let client = direct;
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = plainAddress(hops[index]!);
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!trusted.check(hop)) return hop;
  }
  return client;
}

const resolved = new WeakMap<IncomingMessage, string>();

/** Wraps the node's request listener: each request's client address is worked out once, before anything reads it. */
export function withClientAddress(
  listener: (request: IncomingMessage, response: ServerResponse) => void,
  trusted: TrustedProxies,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    resolved.set(request, resolveClientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for'], trusted));
    listener(request, response);
  };
}

/** The client's address of a request (the direct peer when no listener above resolved it, as in tests). */
export function clientAddressOf(request: IncomingMessage | undefined): string {
  if (!request) return 'unknown';
  return resolved.get(request) ?? (request.socket?.remoteAddress ? plainAddress(request.socket.remoteAddress) : 'unknown');
}
