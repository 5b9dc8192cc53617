/**
 * Performance budget of the sign-in page: the JavaScript that /login loads must stay at or
 * under 200 kB gzipped, and the meeting room, calendar and admin code must not be part of it.
 *
 * Reads the Vite manifest of the production build (run `npm run build` first): /login loads the entry
 * chunk of index.html with its static imports, then the lazy login page with its static imports.
 *
 *   node --import tsx bench/bundle-size.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// ADR 027, "Bundle": back to 200 kB once what every page runs at start became one chunk (vite.config.ts).
const BUDGET_BYTES = 200 * 1000;
/**
 * The channel page's early watch, inlined into a live broadcast's page, runs before any of
 * the app's scripts: it must stay small, free of the app's schemas and zod.
 */
const EARLY_WATCH_BUDGET_BYTES = 10 * 1000;
const DIST = new URL('../apps/web/dist/', import.meta.url).pathname;
const MANIFEST = join(DIST, '.vite/manifest.json');

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

if (!existsSync(MANIFEST)) {
  console.error(`No build manifest at ${MANIFEST}; run "npm run build" first.`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, Chunk>;

/** A chunk and everything it imports statically (what the browser fetches before running it). */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(imported, seen);
  return seen;
}

function findKey(suffix: string): string {
  const key = Object.keys(manifest).find((candidate) => candidate.endsWith(suffix));
  if (!key) throw new Error(`no chunk for ${suffix} in the manifest`);
  return key;
}

const gzipped = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function report(title: string, keys: Set<string>) {
  const rows = [...keys].map((key) => ({ file: manifest[key]!.file, gzip: gzipped(manifest[key]!.file) }));
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);
  console.log(`\n${title}: ${kb(total)} gzipped in ${rows.length} files`);
  for (const row of rows) console.log(`  ${kb(row.gzip).padStart(9)}  ${row.file}`);
  return total;
}

const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
if (!entry) throw new Error('no entry chunk in the manifest');
const loginKeys = new Set([...closure(entry), ...closure(findKey('features/auth/login-page.tsx'))]);
// The preferences script, inlined into index.html, is JavaScript that /login loads too.
const inlineScripts = [...readFileSync(join(DIST, 'index.html'), 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)]
  .map(([, source]) => source ?? '')
  .join('\n');
const inlineGzip = gzipSync(inlineScripts, { level: 9 }).length;
console.log(`\nScripts inlined into index.html: ${kb(inlineGzip)} gzipped`);
const earlyWatchBytes = readFileSync(join(DIST, 'early-watch.js')).length;
console.log(
  `The channel page's early watch (inlined into live pages): ${kb(earlyWatchBytes)}, budget ${kb(EARLY_WATCH_BUDGET_BYTES)}`,
);
const loginTotal = report('/login loads', loginKeys) + inlineGzip;

// Code that must load only when visited.
const lazyAreas = {
  room: 'features/room/room-page.tsx',
  calendar: 'features/calendar/calendar-page.tsx',
  admin: 'features/shell/admin-layout.tsx',
  'main layout': 'features/shell/main-layout.tsx',
};
let isSplit = true;
console.log('\nLoaded only when visited:');
for (const [area, source] of Object.entries(lazyAreas)) {
  const key = findKey(source);
  const own = [...closure(key)].filter((chunk) => !loginKeys.has(chunk));
  const size = own.reduce((sum, chunk) => sum + gzipped(manifest[chunk]!.file), 0);
  const isInLogin = loginKeys.has(key);
  if (isInLogin) isSplit = false;
  console.log(
    `  ${area.padEnd(12)} ${kb(size).padStart(9)}  ${isInLogin ? 'IN THE SIGN-IN BUNDLE' : 'separate chunk'}`,
  );
}

const css = [...loginKeys].flatMap((key) => manifest[key]!.css ?? []);
console.log(`\nCSS for /login: ${kb(css.reduce((sum, file) => sum + gzipped(file), 0))} gzipped`);
console.log(`\nBudget: ${kb(loginTotal)} of ${kb(BUDGET_BYTES)} JavaScript for /login (with the inlined scripts)`);

if (loginTotal > BUDGET_BYTES || !isSplit || earlyWatchBytes > EARLY_WATCH_BUDGET_BYTES) {
  const failure =
    loginTotal > BUDGET_BYTES
      ? 'over the budget'
      : isSplit
        ? 'the early watch is over its budget'
        : 'lazy areas leaked into /login';
  console.error(`FAIL: ${failure}`);
  process.exit(1);
}
console.log('OK');
