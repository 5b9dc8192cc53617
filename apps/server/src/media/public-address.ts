import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** This machine's own addresses, loopback and IPv6 link-local aside. */
export function ownAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !(entry.family === 'IPv6' && entry.address.startsWith('fe80:')))
    .map((entry) => entry.address);
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The public address a managed Janus announces when none is configured (ADR 035): PUBLIC_URL's host,
 * when it is or resolves to a public address that is none of this machine's own — the machine then
 * sits behind 1:1 NAT (a cloud machine). A private address is a proxy in front of us, not our NAT.
 */
export async function publicAddressFromUrl(
  publicUrl: string,
  own: string[] = ownAddresses(),
): Promise<string | undefined> {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  let address = host;
  if (isIP(host) === 0) {
    try {
      address = (await lookup(host)).address;
    } catch {
      return undefined;
    }
  }
  return isPublicAddress(address) && !own.includes(address) ? address : undefined;
}
