import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { rolldown } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';

const SERVER = process.env.MEETCAST_SERVER_URL ?? 'http://127.0.0.1:3000';

/**
 * Writes .br and .gz next to every built asset so the server sends them compressed without spending
 * CPU per request (@fastify/static `preCompressed`).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'meetcast-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json)$/.test(file) || statSync(file).size < 1024) continue;
        const content = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * Puts the entry stylesheet and the preferences script into index.html: no render-blocking request
 * before the first paint (Lighthouse on /login, ADR 007). The CSP allows inline styles already
 * (style-src 'unsafe-inline'); the server allows this one inline script by its hash
 * (apps/server/src/http/security-headers.ts).
 */
function inlineFirstPaintResources(): Plugin {
  let publicDir = 'public';
  return {
    name: 'meetcast-inline-first-paint-resources',
    apply: 'build',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return html
          .replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (link, fileName: string) => {
            const asset = bundle?.[fileName];
            if (asset?.type !== 'asset') return link;
            return `<style>${String(asset.source)}</style>`;
          })
          .replace(/<script src="\/(preferences-init\.js)"><\/script>/, (_script, fileName: string) => {
            const source = readFileSync(join(publicDir, fileName), 'utf8');
            return `<script>${source.replace(/^\/\/.*\n/gm, '').trim()}</script>`;
          });
      },
    },
  };
}

/**
 * Bundles the channel page's early watch (src/features/channels/player/early-watch.ts) on its own, as
 * a classic script (`early-watch.js`): the server inlines it where index.html marks its place, on a
 * live broadcast's page only, so it opens the connection while the HTML is parsed, before any of the
 * app's scripts has arrived (ADR 011). The policy allows it by its hash, as the preferences script
 * (apps/server/src/http/security-headers.ts).
 */
function earlyWatchScript(): Plugin {
  return {
    name: 'meetcast-early-watch-script',
    apply: 'build',
    async generateBundle() {
      const bundle = await rolldown({ input: 'src/features/channels/player/early-watch.ts', platform: 'browser' });
      const { output } = await bundle.generate({ format: 'iife', minify: true });
      await bundle.close();
      const code = output[0].code.trim();
      if (code.includes('</')) throw new Error('the early watch cannot be inlined: it contains "</"');
      this.emitFile({ type: 'asset', fileName: 'early-watch.js', source: code });
    },
  };
}

/**
 * The background effects' model and runtime (ADR 017), served from our own origin under
 * /background-effects/ and fetched only when a user turns an effect on: MediaPipe's selfie
 * segmentation model from its npm package, and LiteRT.js's WebAssembly (with and without relaxed
 * SIMD; the threaded build needs cross-origin isolation, which the app does not have).
 */
function backgroundEffectAssets(): Plugin {
  const require = createRequire(import.meta.url);
  const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
  const files: Record<string, string> = {
    'selfie_segmentation_landscape.tflite': join(
      packageDir('@mediapipe/selfie_segmentation'),
      'selfie_segmentation_landscape.tflite',
    ),
  };
  for (const name of ['litert_wasm_internal', 'litert_wasm_compat_internal']) {
    for (const extension of ['js', 'wasm']) {
      files[`${name}.${extension}`] = join(packageDir('@litertjs/core'), 'wasm', `${name}.${extension}`);
    }
  }
  const PREFIX = '/background-effects/';
  return {
    name: 'meetcast-background-effect-assets',
    generateBundle() {
      for (const [name, source] of Object.entries(files)) {
        this.emitFile({ type: 'asset', fileName: `background-effects/${name}`, source: readFileSync(source) });
      }
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const name = request.url?.startsWith(PREFIX) ? request.url.slice(PREFIX.length).split('?')[0] : undefined;
        const source = name ? files[name] : undefined;
        if (!source) return next();
        response.setHeader('content-type', source.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream');
        response.end(readFileSync(source));
      });
    },
  };
}

// The dev server forwards the API, the realtime socket and the locale files to the Fastify server;
// in production that server serves this build itself (apps/server/src/http/web-app.ts).
export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    inlineFirstPaintResources(),
    earlyWatchScript(),
    backgroundEffectAssets(),
    precompress(),
  ],
  server: {
    proxy: {
      '/api': { target: SERVER, changeOrigin: true },
      '/locales': { target: SERVER, changeOrigin: true },
      '/socket.io': { target: SERVER, changeOrigin: true, ws: true },
      '/janus': { target: SERVER, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // bench/bundle-size.ts reads the manifest to know which chunks each page loads.
    manifest: true,
    // Pages are split per route (lazy imports in src/app/routes.ts). What every page runs at start (the
    // entry's static imports: React, the router, i18next, the query client, zod, the API client) is one
    // chunk: left to the bundler it came in a dozen pieces, each compressed on its own, which cost /login
    // about 2 kB gzipped (bench/bundle-size.ts).
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'start', tags: ['$initial'] }] } },
    },
  },
});
