import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PAGE_ROUTES } from './routes';

const HERE = dirname(fileURLToPath(import.meta.url));
const LOCALES = resolve(HERE, '../../public/locales/en');
/** i18n.ts loads i18next when imported: its core namespaces are read from its source instead. */
const CORE = [
  ...(
    /CORE_NAMESPACES = \[([^\]]*)\]/.exec(readFileSync(resolve(HERE, '../i18n/i18n.ts'), 'utf8'))?.[1] ?? ''
  ).matchAll(/'([^']+)'/g),
].map((m) => m[1]!);

/** Each route with its page module's file (the lazy import's path, read from routes.ts). */
function routes() {
  const source = readFileSync(join(HERE, 'routes.ts'), 'utf8');
  const pages = new Map<string, string>();
  for (const [, path, page] of source.matchAll(/\{\s*path: '([^']+)',[^}]*?import\('([^']+)'\)/g)) {
    pages.set(path!, resolve(HERE, page!));
  }
  return PAGE_ROUTES.map((route) => ({ path: route.path, page: pages.get(route.path)!, ns: route.ns ?? [] }));
}

function resolveModule(base: string) {
  for (const candidate of [`${base}.tsx`, `${base}.ts`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The namespaces every module a page imports statically (not lazily) asks for with useTranslation. */
function namespacesOf(page: string) {
  const seen = new Set<string>();
  const namespaces = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/useTranslation\((\[[^\]]*\]|'[^']*')/g)) {
      for (const name of m[1]!.matchAll(/'([^']+)'/g)) namespaces.add(name[1]!);
    }
    for (const m of source.matchAll(/^(?:import|export)\s[^;]*?from '(\.[^']+)'/gms)) {
      const next = resolveModule(resolve(dirname(file), m[1]!));
      if (next) visit(next);
    }
  };
  visit(resolveModule(page)!);
  return namespaces;
}

describe('routes', () => {
  const all = routes();

  it('each have their page module found in routes.ts', () => {
    expect(CORE).toContain('common');
    expect(all.every((route) => route.page !== undefined)).toBe(true);
    expect(all.find((route) => route.path === '/channel/:meetId')?.ns).toEqual(['channels', 'player', 'viewer-chat']);
  });

  it.each(all.map((route) => [route.path, route] as const))(
    '%s fetches every namespace its page renders with, together with its code',
    (_, route) => {
      for (const ns of route.ns) expect(existsSync(join(LOCALES, `${ns}.json`)), ns).toBe(true);
      const missing = [...namespacesOf(route.page)].filter((ns) => !CORE.includes(ns) && !route.ns.includes(ns));
      expect(missing).toEqual([]);
    },
  );
});
