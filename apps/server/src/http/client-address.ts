import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Fastify's `trustProxy`: false, a hop count, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

/** TRUST_PROXY as set: empty for none, a number of hops, or a comma-separated list of addresses. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  if (!value) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((address) => address.trim());
}

/** Fastify's `trustProxy` for our setting: a hop count trusts that many proxies nearest to us. */
export function trustProxyOption(trust: TrustProxy) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/**
 * The client's address for a raw request Fastify never saw (a WebSocket upgrade), read as Fastify
 * reads `request.ip`: through the proxies we trust, and no further.
 */
export function clientAddress(request: IncomingMessage, trust: TrustProxy): string {
  const option = trustProxyOption(trust);
  if (option === false) return request.socket.remoteAddress ?? '';
  return proxyAddr(request, typeof option === 'function' ? option : proxyAddr.compile(option));
}
