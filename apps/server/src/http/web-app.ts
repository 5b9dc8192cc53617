import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { isLanguage } from '@meetcast/contracts';
import type { FastifyInstance } from 'fastify';
import { translate } from '../i18n/messages.js';
import { requestLanguage } from './request-language.js';

const LOCALES_DIR = new URL('../../../web/public/locales/', import.meta.url).pathname;
const NAMESPACE = /^[a-z][a-z-]{0,30}$/;
const NON_SPA_PREFIXES = ['/api/', '/locales/', '/socket.io/', '/janus', '/assets/', '/uploads/'];

const ENCODINGS = ['br', 'gzip'] as const;

export interface IndexPage {
  identity: Buffer;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
  /** The channel page's early watch, inlined into a live broadcast's page only (channels/og-page.ts). */
  earlyWatchScript: string | undefined;
}

/**
 * The built index.html with its precompressed copies, or undefined without a build. It carries the
 * entry stylesheet inline (apps/web/vite.config.ts), so it is sent compressed like the other assets;
 * it is read once at start (for this and for the CSP hash of its script), since a new build means a
 * restart anyway.
 */
export function readIndexPage(webDistDir: string): IndexPage | undefined {
  const indexFile = join(webDistDir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const optional = (file: string) => (existsSync(file) ? readFileSync(file) : undefined);
  return {
    identity: readFileSync(indexFile),
    br: optional(`${indexFile}.br`),
    gzip: optional(`${indexFile}.gz`),
    earlyWatchScript: optional(join(webDistDir, 'early-watch.js'))?.toString('utf8'),
  };
}

/** Serves the built SPA with a fallback to index.html for client routes, and the locale files. */
export async function registerWebApp(app: FastifyInstance, webDistDir: string, indexPage: IndexPage | undefined) {
  app.get<{ Params: { lng: string; ns: string } }>('/locales/:lng/:ns', (request, reply) => {
    const { lng, ns } = request.params;
    const namespace = ns.replace(/\.json$/, '');
    const file = join(LOCALES_DIR, lng, `${namespace}.json`);
    if (!isLanguage(lng) || !NAMESPACE.test(namespace) || !existsSync(file)) {
      return reply.status(404).send({
        status: 'error',
        message: translate(requestLanguage(request), 'errors.not_found'),
      });
    }
    return reply
      .header('cache-control', 'public, max-age=300')
      .type('application/json; charset=utf-8')
      .send(readFileSync(file));
  });

  if (indexPage) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The web build writes .br/.gz next to each asset; send those when the browser accepts them.
      preCompressed: true,
      setHeaders: (response, path) => {
        const isHashed = path.includes(`${join(webDistDir, 'assets')}`);
        response.setHeader('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    const wantsPage = isRead && !NON_SPA_PREFIXES.some((prefix) => path.startsWith(prefix));
    if (wantsPage && indexPage) {
      const accepted = request.headers['accept-encoding'] ?? '';
      const encoding = ENCODINGS.find((name) => indexPage[name] && accepted.includes(name));
      if (encoding) reply.header('content-encoding', encoding);
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .type('text/html; charset=utf-8')
        .send(encoding ? indexPage[encoding] : indexPage.identity);
    }
    return reply.status(404).send({
      status: 'error',
      message: translate(requestLanguage(request), 'errors.not_found'),
    });
  });
}
