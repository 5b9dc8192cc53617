import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import helmet from 'helmet';

/**
 * JSON answers are never rendered as documents: they get the short set OWASP recommends for APIs
 * (nothing may load, nothing may frame them, no sniffing). Sending the page set on every API call
 * cost a quarter of a small call's throughput.
 */
const API_HEADERS = new Map(
  Object.entries({
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
  }),
);

const EMBED_PAGE = /^\/channel\/[^/?]+\?(?:[^#]*&)?embed=1(?:&|$)/;

/** A year, subdomains included (the public address is served over TLS by the operator's proxy). */
const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers of JSON answers (the API and Socket.IO's own HTTP answers). */
export function apiSecurityHeaders(isHttps: boolean): Map<string, string> {
  const headers = new Map(API_HEADERS);
  if (isHttps) headers.set('strict-transport-security', HSTS);
  return headers;
}

/**
 * Pages and files get helmet's headers with a strict Content-Security-Policy: only our own scripts,
 * no inline script, no framing. helmet computes them once here rather than per request (as
 * @fastify/helmet does). They are set where the HTTP server hands the request to Fastify: an
 * onRequest hook for them cost a tenth of a small API call's throughput.
 */
export function securityHeadersServer(options: {
  extraFormActions: string[];
  /** The built index.html, whose one inline script the policy allows by hash. */
  indexHtml: string | undefined;
  /** The script a live broadcast's page carries inline (channels/og-page.ts), also allowed by hash. */
  earlyWatchScript: string | undefined;
  /** Browsers are told to keep to HTTPS only when the public address is HTTPS. */
  isHttps: boolean;
}): FastifyServerFactory {
  const pageHeaders = new Map(
    Object.entries(
      securityHeaders(options.extraFormActions, [
        ...inlineScriptHashes(options.indexHtml ?? ''),
        ...(options.earlyWatchScript === undefined ? [] : [scriptHash(options.earlyWatchScript)]),
      ]),
    ),
  );
  const apiHeaders = apiSecurityHeaders(options.isHttps);
  if (options.isHttps) pageHeaders.set('strict-transport-security', HSTS);
  // The embeddable player (`/channel/{meetId}?embed=1`, ADR 011) may be framed by any site; it
  // holds no session action a frame could be abused for (the public page, signed out or not).
  const embedHeaders = new Map(pageHeaders);
  embedHeaders.delete('x-frame-options');
  embedHeaders.set(
    'content-security-policy',
    (pageHeaders.get('content-security-policy') ?? '').replace("frame-ancestors 'none'", 'frame-ancestors *'),
  );
  return (handler) => {
    const server = createServer((request, response) => {
      const url = request.url ?? '/';
      const headers = url.startsWith('/api/') ? apiHeaders : EMBED_PAGE.test(url) ? embedHeaders : pageHeaders;
      response.setHeaders(headers);
      handler(request, response);
    });
    // Fastify's default for the servers it creates itself (longer than common proxies' idle timeouts).
    server.keepAliveTimeout = 72_000;
    return server;
  };
}

/**
 * The build puts one small script into index.html (theme and text direction before the first
 * paint); the policy allows exactly that script by its hash, and no other inline script.
 */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, source]) => scriptHash(source ?? ''));
}

const scriptHash = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;

function securityHeaders(extraFormActions: string[], scriptHashes: string[]): Record<string, string> {
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' compiles WebAssembly (the background effects' model runtime, ADR 017);
        // it allows no eval of JavaScript.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...scriptHashes],
        // Radix and the toast library position elements through style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // 'self' covers WebSockets to our own origin (ws: and wss: alike) in CSP Level 3 browsers.
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'", ...extraFormActions],
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: () => undefined,
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}
