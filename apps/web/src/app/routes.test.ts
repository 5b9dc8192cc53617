import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));
const LOCALES = resolve(HERE, '../../public/locales/en');
const CORE = ['common', 'shell'];

/** Each route of routes.ts as written: its page module and the namespaces it fetches with it. */
function routes() {
  const source = readFileSync(join(HERE, 'routes.ts'), 'utf8');
  const found: { path: string; page: string; ns: string[] }[] = [];
  for (const [, path, block] of source.matchAll(/\{\s*path: '([^']+)',([^}]*)\}/g)) {
    const page = /import\('([^']+)'\)/.exec(block!)![1]!;
    const ns = [...(/ns: \[([^\]]*)\]/.exec(block!)?.[1]?.matchAll(/'([^']+)'/g) ?? [])].map((m) => m[1]!);
    found.push({ path: path!, page: resolve(HERE, page), ns });
  }
  return found;
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

  it('are all read from routes.ts', () => {
    expect(all.length).toBeGreaterThan(30);
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
