import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server.js';

const INLINE_SCRIPT = "document.documentElement.setAttribute('dir', 'ltr');";
const INDEX_HTML = `<!doctype html><script>${INLINE_SCRIPT}</script><div id="root"></div>`;

describe('HTTP surface', () => {
  let server: TestServer;
  const webDist = mkdtempSync(join(tmpdir(), 'meetcast-dist-'));

  beforeAll(async () => {
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
    writeFileSync(join(webDist, 'index.html.gz'), gzipSync(INDEX_HTML));
    writeFileSync(join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
    server = await startTestServer('pglite', { WEB_DIST_DIR: webDist });
  });
  afterAll(() => server.close());

  it('sends a strict Content-Security-Policy and security headers', async () => {
    const response = await fetch(`${server.baseUrl}/login`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    // WebAssembly may compile (the background effects, ADR 017); JavaScript may not be eval'd or inlined.
    expect(csp).toMatch(/script-src[^;]*'wasm-unsafe-eval'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(eval|inline)'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    // The build's one inline script (theme before the first paint) is allowed by its hash only.
    const hash = createHash('sha256').update(INLINE_SCRIPT).digest('base64');
    expect(csp).toMatch(new RegExp(`script-src 'self' 'wasm-unsafe-eval' 'sha256-${hash.replace(/[+/]/g, '\\$&')}';`));
  });

  it('lets pages connect to their own origin only, answers HEAD for pages, and sends no HSTS over http', async () => {
    const response = await fetch(`${server.baseUrl}/login`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toMatch(/connect-src[^;]*(ws:|wss:)/);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it("puts the API's security headers on Socket.IO's own HTTP answers", async () => {
    const response = await fetch(`${server.baseUrl}/socket.io/?EIO=4&transport=polling`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('tells browsers to keep to HTTPS when the public address is HTTPS', async () => {
    const secure = await startTestServer('pglite', { WEB_DIST_DIR: webDist, PUBLIC_URL: 'https://meet.example.com' });
    try {
      for (const path of ['/login', '/api/tokenverify.php', '/socket.io/?EIO=4&transport=polling']) {
        const response = await fetch(`${secure.baseUrl}${path}`, { method: path.startsWith('/api/') ? 'POST' : 'GET' });
        expect(response.headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains');
      }
    } finally {
      await secure.close();
    }
  });

  it('sends the page compressed when the browser accepts it', async () => {
    const gzipped = await fetch(`${server.baseUrl}/login`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(await gzipped.text()).toBe(INDEX_HTML);
    const plain = await fetch(`${server.baseUrl}/login`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(INDEX_HTML);
  });

  it('sends JSON answers with the API set: nothing loads, nothing frames them', async () => {
    const response = await fetch(`${server.baseUrl}/api/tokenverify.php`, { method: 'POST' });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the app for client routes and assets with long caching', async () => {
    for (const path of ['/', '/login', '/room/abc?password=x', '/admin/users', '/recent-mettings']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain('<div id="root">');
    }
    const asset = await fetch(`${server.baseUrl}/assets/app-1234.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missingAsset = await fetch(`${server.baseUrl}/assets/missing.js`);
    expect(missingAsset.status).toBe(404);
  });

  it('refuses NUL characters in any field, whatever the encoding', async () => {
    const form = new FormData();
    form.set('slug', 'a\u0000b');
    const bodies: [string, string | FormData, Record<string, string>][] = [
      ['form', 'slug=%00', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['json', JSON.stringify({ slug: 'x\u0000', nested: ['ok'] }), { 'content-type': 'application/json' }],
      ['multipart', form, {}],
    ];
    for (const [name, body, headers] of bodies) {
      const response = await fetch(`${server.baseUrl}/api/get-channel.php`, { method: 'POST', body, headers });
      expect(response.status, name).toBe(400);
      expect(await response.json(), name).toEqual({ status: 'error', message: expect.stringContaining('NUL') });
    }
  });

  it('refuses deeply nested JSON with a 400 on every call, not a stack overflow', async () => {
    const deep = '{"a":'.repeat(4000) + '1' + '}'.repeat(4000);
    for (const call of ['get-channel.php', 'login.php', 'tokenverify.php']) {
      const response = await fetch(`${server.baseUrl}/api/${call}`, {
        method: 'POST',
        body: deep,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, call).toBe(400);
      expect(await response.json(), call).toEqual({ status: 'error', message: expect.any(String) });
    }
  });

  it('answers health and readiness', async () => {
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
  });

  it('serves locale files and refuses unknown languages or paths', async () => {
    const missing = await fetch(`${server.baseUrl}/locales/xx/common.json`);
    expect(missing.status).toBe(404);
    const traversal = await fetch(`${server.baseUrl}/locales/en/..%2F..%2Fpackage.json`);
    expect(traversal.status).toBe(404);
  });

  it('describes every API call in the OpenAPI document', async () => {
    const document = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, { post?: { requestBody?: unknown } }>;
    };
    expect(document.openapi).toMatch(/^3\./);
    const registered = server.built.app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .map((line) => /(\/api\/[\w.-]+\.php)/.exec(line)?.[1])
      .filter((path): path is string => Boolean(path));
    expect(registered.length).toBeGreaterThan(5);
    for (const path of registered) {
      expect(document.paths[path]?.post?.requestBody, path).toBeDefined();
    }
    for (const name of [
      'signup',
      'confirm-signup',
      'login',
      'logout',
      'forgot-password',
      'reset-password',
      'tokenverify',
    ]) {
      expect(document.paths[`/api/${name}.php`], name).toBeDefined();
    }
  });
});
