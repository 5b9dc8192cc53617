import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isAllowedAddress, literalAddress, NO_EXCEPTIONS } from '../platform/address-policy.js';

/** The largest picture downloaded from a provider, before it is re-encoded. */
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
const PICTURE_TIMEOUT_MS = 5_000;
const MAX_REDIRECTS = 3;

// A provider claim must not make the server probe the machine or its private network (SSRF): the
// same address policy as streams (docs/security.md "Outgoing connections"), with no exceptions but
// the issuer's own host, which the operator configured. RTMP_ALLOW_PRIVATE is for streams only.
class PictureRefused extends Error {}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup that refuses a name with ANY address inside, done by the connection itself so that
 * the address checked is the one connected to.
 */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.some((entry) => !isAllowedAddress(entry.address, NO_EXCEPTIONS))) {
      return callback(new PictureRefused(`${hostname} is a private address`), []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first?.address ?? '', first?.family);
  });
}

function get(url: URL, trustedHost: string): Promise<IncomingMessage> {
  const isTrusted = url.hostname.toLowerCase() === trustedHost;
  const literal = literalAddress(url.hostname);
  if (!isTrusted && literal !== undefined && !isAllowedAddress(literal, NO_EXCEPTIONS)) {
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
