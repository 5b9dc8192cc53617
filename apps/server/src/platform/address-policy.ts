import { lookup as dnsLookup } from 'node:dns/promises';

/**
 * Which addresses the server may connect to on a person's behalf (RTMP destinations, a platform's
 * ingest, a provider's picture). Anything inside the machine or its networks (loopback, private,
 * link-local, CGNAT, multicast, cloud metadata) is refused unless the operator lists it in
 * RTMP_ALLOW_PRIVATE; see docs/security.md "Outgoing connections (SSRF)".
 */

export type AddressClass =
  | 'public'
  /** An address of this machine's own interfaces: a public one still reaches its listeners. */
  | 'own'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'multicast'
  | 'broadcast'
  | 'metadata'
  | 'reserved';

/** An address as 128 bits: IPv4 addresses are kept IPv4-mapped (::ffff:a.b.c.d), so one range test fits both. */
interface Ip {
  family: 4 | 6;
  bits: bigint;
}

interface Cidr {
  family: 4 | 6;
  network: bigint;
  prefix: number;
}

/** What the operator lets through although it is inside: addresses, networks and host names. */
export interface AddressPolicy {
  networks: Cidr[];
  hostNames: string[];
  /** This machine's own addresses (see withOwnAddresses), refused unless listed like any inside. */
  ownAddresses?: bigint[];
}

/** Nothing inside allowed: the default. */
export const NO_EXCEPTIONS: AddressPolicy = { networks: [], hostNames: [] };

const MAPPED_PREFIX = 0xffffn << 32n;
const MAX_128 = (1n << 128n) - 1n;

/**
 * A host written the ways inet_aton and WHATWG URL parsing read IPv4: one to four parts, each
 * decimal, octal (leading 0) or hex (0x), the last filling the remaining bytes (`127.1`,
 * `2130706433`, `0x7f000001`, `0177.0.0.1`); a trailing dot is allowed. Undefined for anything else.
 */
export function parseIpv4(text: string): string | undefined {
  const parts = text.replace(/\.$/, '').split('.');
  if (parts.length === 0 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = Number.parseInt(part.slice(1), 8);
    else if (/^(0|[1-9]\d*)$/.test(part)) value = Number(part);
    else return undefined;
    if (!Number.isSafeInteger(value)) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop() ?? 0;
  if (numbers.some((value) => value > 255) || last >= 256 ** (4 - numbers.length)) return undefined;
  const total = numbers.reduce((sum, value, index) => sum + value * 256 ** (3 - index), 0) + last;
  return [24, 16, 8, 0].map((shift) => (total >>> shift) & 255).join('.');
}

function ipv4Bits(dotted: string): bigint {
  return dotted.split('.').reduce((bits, part) => (bits << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address (a zone such as `%eth0` is dropped, a trailing IPv4 part is read); undefined if not one. */
function parseIpv6Bits(text: string): bigint | undefined {
  const address = text.replace(/%.*$/, '').toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(address) || !address.includes(':')) return undefined;
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): number[] | undefined => {
    if (half === '') return [];
    const groups: number[] = [];
    const pieces = half.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes('.')) {
        const dotted = /^\d{1,3}(\.\d{1,3}){3}$/.test(piece) ? piece : undefined;
        if (!dotted || dotted.split('.').some((byte) => Number(byte) > 255)) return undefined;
        const bits = Number(ipv4Bits(dotted));
        groups.push(bits >>> 16, bits & 0xffff);
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) {
        groups.push(Number.parseInt(piece, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(group), 0n);
}

function parseIp(text: string): Ip | undefined {
  const host = text.replace(/^\[(.*)\]$/, '$1');
  const v6 = parseIpv6Bits(host);
  if (v6 !== undefined) return { family: 6, bits: v6 };
  const v4 = parseIpv4(host);
  return v4 === undefined ? undefined : { family: 4, bits: MAPPED_PREFIX | ipv4Bits(v4) };
}

/** A host as an address in its usual spelling (`127.0.0.1`, `::1`), or undefined when it is a name. */
export function literalAddress(host: string): string | undefined {
  const ip = parseIp(host);
  return ip && formatIp(ip);
}

function formatIp({ family, bits }: Ip): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((bits >> shift) & 255n)).join('.');
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => Number((bits >> shift) & 0xffffn));
  // The longest run of two or more zero groups becomes `::`.
  let best = { start: -1, length: 0 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > best.length && length > 1) best = { start, length };
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

function cidr(text: string): Cidr {
  const [address = '', prefixText] = text.split('/');
  const ip = parseIp(address);
  if (!ip) throw new Error(`not an address: ${text}`);
  const prefix = prefixText === undefined ? (ip.family === 4 ? 32 : 128) : Number(prefixText);
  return { family: ip.family, network: ip.bits, prefix: ip.family === 4 ? prefix + 96 : prefix };
}

function contains(range: Cidr, bits: bigint): boolean {
  const hostBits = BigInt(128 - range.prefix);
  return bits >> hostBits === range.network >> hostBits;
}

/** First match wins: the narrow ranges (metadata, mapped forms) come before the ranges they sit in. */
const RANGES: [string, AddressClass | 'nat64' | '6to4'][] = [
  // Cloud metadata services: AWS/GCP/Azure/OpenStack, AWS over IPv6, Azure's wire server, Alibaba, Oracle.
  ['169.254.169.254/32', 'metadata'],
  ['fd00:ec2::254/128', 'metadata'],
  ['168.63.129.16/32', 'metadata'],
  ['100.100.100.200/32', 'metadata'],
  ['192.0.0.192/32', 'metadata'],
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'reserved'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  // NAT64 (RFC 6052) carries an IPv4 address in its last 32 bits: the gateway connects to that one.
  ['64:ff9b::/96', 'nat64'],
  ['64:ff9b:1::/48', 'private'],
  // IPv4-compatible (deprecated) addresses.
  ['::/96', 'reserved'],
  ['100::/64', 'reserved'],
  ['2001::/32', 'reserved'],
  ['2001:db8::/32', 'reserved'],
  // 6to4 relays reach the IPv4 address in bits 16-48.
  ['2002::/16', '6to4'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'private'],
  ['ff00::/8', 'multicast'],
];

const PARSED_RANGES = RANGES.map(([range, kind]) => ({ range: cidr(range), kind }));

function classifyBits(bits: bigint): AddressClass {
  for (const { range, kind } of PARSED_RANGES) {
    if (!contains(range, bits)) continue;
    if (kind === 'nat64') return classifyBits(MAPPED_PREFIX | (bits & 0xffffffffn));
    if (kind === '6to4') return classifyBits(MAPPED_PREFIX | ((bits >> 80n) & 0xffffffffn));
    return kind;
  }
  return 'public';
}

/** What kind of address this is; anything that is not an address at all counts as `reserved`. */
export function classifyAddress(address: string): AddressClass {
  const ip = parseIp(address);
  return ip ? classifyBits(ip.bits) : 'reserved';
}

function isListed(policy: AddressPolicy, bits: bigint): boolean {
  return policy.networks.some((network) => contains(network, bits));
}

/** What this address is under the policy: a public address of this machine is `own`. */
function classifyUnder(bits: bigint, policy: AddressPolicy): AddressClass {
  const kind = classifyBits(bits);
  return kind === 'public' && policy.ownAddresses?.includes(bits) ? 'own' : kind;
}

/** True when the server may connect to this address under the policy. */
export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  const ip = parseIp(address);
  if (!ip) return false;
  return classifyUnder(ip.bits, policy) === 'public' || isListed(policy, ip.bits);
}

/**
 * The policy that also refuses this machine's own addresses (as `os.networkInterfaces()` lists
 * them): a server with a public address reaches its own listeners (Redis bound to every interface,
 * say) through it as well as through loopback.
 */
export function withOwnAddresses(policy: AddressPolicy, addresses: string[]): AddressPolicy {
  const own = addresses.map((address) => parseIp(address)?.bits).filter((bits) => bits !== undefined);
  return { ...policy, ownAddresses: own };
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

function normaliseName(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/**
 * RTMP_ALLOW_PRIVATE: comma-separated addresses (`127.0.0.1`, `::1`), networks (`10.0.0.0/8`,
 * `fd00::/8`) and host names (`rtmp.lan`). Throws a message naming the entry that is none of these.
 */
export function parseAddressPolicy(value: string | undefined): AddressPolicy {
  const policy: AddressPolicy = { networks: [], hostNames: [] };
  for (const entry of (value ?? '').split(',').map((part) => part.trim())) {
    if (!entry) continue;
    const [address = '', prefixText, ...rest] = entry.split('/');
    const ip = parseIp(address);
    if (ip && rest.length === 0) {
      const max = ip.family === 4 ? 32 : 128;
      if (prefixText !== undefined && !(/^\d{1,3}$/.test(prefixText) && Number(prefixText) <= max)) {
        throw new Error(`"${entry}" has a prefix length outside 0-${max}`);
      }
      const range = cidr(prefixText === undefined ? formatIp(ip) : `${formatIp(ip)}/${prefixText}`);
      // The network's own address: host bits given in `10.1.2.3/8` are dropped, as `ip route` does.
      const hostBits = BigInt(128 - range.prefix);
      policy.networks.push({ ...range, network: ((range.network >> hostBits) << hostBits) & MAX_128 });
      continue;
    }
    const name = normaliseName(entry);
    // An all-numeric last label is a mistyped address, not a name.
    if (prefixText !== undefined || !HOST_NAME.test(name) || /(^|\.)\d+$/.test(name)) {
      throw new Error(`"${entry}" is not an address, a network (address/prefix) or a host name`);
    }
    policy.hostNames.push(name);
  }
  return policy;
}

/** Why a connection was not made: the address is inside and not listed, or the name does not resolve. */
export class AddressRefusedError extends Error {
  constructor(
    readonly reason: 'inside' | 'unresolved',
    readonly host: string,
    readonly address?: string,
    readonly addressClass?: AddressClass,
  ) {
    super(
      reason === 'inside'
        ? `${host} is ${address === host ? 'a' : `${address ?? '?'}, a`} ${addressClass ?? 'reserved'} address`
        : `${host} does not resolve`,
    );
    this.name = 'AddressRefusedError';
  }
}

export type Lookup = (host: string) => Promise<{ address: string }[]>;

/** Every address the system resolver gives for a name (the one ffmpeg and Node connect through). */
export const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

const DEFAULT_PORTS: Record<string, number> = { 'rtmp:': 1935, 'rtmps:': 443, 'http:': 80, 'https:': 443 };

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function portOf(url: URL): number {
  return url.port ? Number(url.port) : (DEFAULT_PORTS[url.protocol] ?? 0);
}

function refuseInside(host: string, address: string, policy: AddressPolicy) {
  if (!isAllowedAddress(address, policy)) {
    const ip = parseIp(address);
    throw new AddressRefusedError('inside', host, address, ip ? classifyUnder(ip.bits, policy) : 'reserved');
  }
}

/**
 * Where to connect for `url`: its literal address, or every address its name resolves to; refused
 * when ANY of them is inside and not allowed (a name with one public and one loopback address must
 * not be a way in). A name the operator listed is allowed whatever it resolves to.
 */
export async function resolveAllowedTarget(
  url: URL,
  policy: AddressPolicy,
  lookup: Lookup = systemLookup,
): Promise<{ address: string; port: number }> {
  const host = hostOf(url);
  const port = portOf(url);
  const literal = literalAddress(host);
  if (literal !== undefined) {
    refuseInside(host, literal, policy);
    return { address: literal, port };
  }
  const name = normaliseName(host);
  const addresses = await lookup(name).catch(() => []);
  const first = addresses[0];
  if (!first) throw new AddressRefusedError('unresolved', host);
  if (!policy.hostNames.includes(name)) for (const { address } of addresses) refuseInside(host, address, policy);
  return { address: literalAddress(first.address) ?? first.address, port };
}

/** The connect-time check in the shape the RTMP side takes it: resolve, refuse or answer where to connect. */
export type ConnectTarget = (url: URL) => Promise<{ address: string; port: number }>;

export function connectTargetFor(policy: AddressPolicy, lookup: Lookup = systemLookup): ConnectTarget {
  return (url) => resolveAllowedTarget(url, policy, lookup);
}

/** How long saving an address waits for its name to resolve before it saves it unchecked. */
const SAVE_LOOKUP_MS = 3000;

/**
 * The check when an address is saved: a literal address inside is refused, and so is a name that
 * resolves inside now. A name that does not resolve now (no DNS here, a typo, a host not up yet) is
 * saved: the connect-time check decides when the stream starts, as it does for a name whose
 * addresses change after saving.
 */
export async function checkSavedAddress(url: URL, policy: AddressPolicy, lookup: Lookup = systemLookup): Promise<void> {
  const host = hostOf(url);
  const literal = literalAddress(host);
  if (literal !== undefined) return refuseInside(host, literal, policy);
  const name = normaliseName(host);
  if (policy.hostNames.includes(name)) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<[]>((resolve) => {
    timer = setTimeout(() => resolve([]), SAVE_LOOKUP_MS);
  });
  const addresses = await Promise.race([lookup(name).catch(() => []), giveUp]).finally(() => clearTimeout(timer));
  for (const { address } of addresses) refuseInside(host, address, policy);
}
