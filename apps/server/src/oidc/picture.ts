import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/** The largest picture downloaded from a provider, before it is re-encoded. */
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
const PICTURE_TIMEOUT_MS = 5_000;
const MAX_REDIRECTS = 3;

// Addresses a picture URL may not reach: a provider claim must not make the server probe the
// machine or its private network (SSRF). The issuer's own host is trusted, it is configured.
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

class PictureRefused extends Error {}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup that refuses private addresses, checked on the address actually connected to. */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const allowed = addresses.filter((entry) => !isPrivateAddress(entry.address));
    if (allowed.length === 0) return callback(new PictureRefused(`${hostname} is a private address`), []);
    if (options.all) return callback(null, allowed);
    const [first] = allowed;
    return callback(null, first?.address ?? '', first?.family);
  });
}

function get(url: URL, trustedHost: string): Promise<IncomingMessage> {
  const isTrusted = url.hostname.toLowerCase() === trustedHost;
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!isTrusted && isIP(literal) && isPrivateAddress(literal)) {
    return Promise.reject(new PictureRefused('private address'));
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.get(
      url,
      {
        headers: { accept: 'image/*' },
        timeout: PICTURE_TIMEOUT_MS,
        ...(isTrusted ? {} : { lookup: guardedLookup as never }),
      },
      resolve,
    );
    request.on('timeout', () => request.destroy(new PictureRefused('timed out')));
    request.on('error', reject);
  });
}

async function readLimited(response: IncomingMessage): Promise<Buffer> {
  const declared = Number(response.headers['content-length'] ?? 0);
  if (declared > PICTURE_MAX_BYTES) {
    response.destroy();
    throw new PictureRefused('too large');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const deadline = setTimeout(() => response.destroy(new PictureRefused('timed out')), PICTURE_TIMEOUT_MS);
  try {
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > PICTURE_MAX_BYTES) {
        response.destroy();
        throw new PictureRefused('too large');
      }
      chunks.push(chunk as Buffer);
    }
  } finally {
    clearTimeout(deadline);
  }
  return Buffer.concat(chunks);
}

/**
 * Downloads a provider's `picture` (http/https only, at most 2 MB, 5 s, 3 redirects, no private
 * addresses except the issuer's host). The caller stores it through `storeImage`, which re-encodes
 * it, so that whatever the URL served, only a clean image of ours is ever stored and shown.
 */
export async function fetchPicture(pictureUrl: string, issuer: string): Promise<Buffer> {
  const trustedHost = new URL(issuer).hostname.toLowerCase();
  let url = new URL(pictureUrl);
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new PictureRefused('not http(s)');
    if (url.username || url.password) throw new PictureRefused('credentials in URL');
    const response = await get(url, trustedHost);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location && redirects < MAX_REDIRECTS) {
      response.resume();
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new PictureRefused(`status ${status}`);
    }
    const type = String(response.headers['content-type'] ?? '').toLowerCase();
    if (!type.startsWith('image/') || type.includes('svg')) {
      response.destroy();
      throw new PictureRefused(`content type ${type}`);
    }
    return readLimited(response);
  }
}
