import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { onRelativeImports } from './relative-imports.js';

const SERVER_SOURCE = resolve(import.meta.dirname, '../../apps/server/src');
const IMPORT = /(?:from\s+|import\s*\(\s*)'(\.[^']+)'/g;

/** The top folder of a server file, or undefined for a file at the top (app.ts) or outside. */
function folderOf(file) {
  const path = relative(SERVER_SOURCE, file);
  if (path.startsWith('..')) return undefined;
  const parts = path.split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

let graph;
/** Which top folders each top folder imports, read once per lint run from the source on disk. */
function folderGraph() {
  if (graph) return graph;
  graph = new Map();
  for (const file of sourceFiles(SERVER_SOURCE)) {
    const from = folderOf(file);
    if (!from) continue;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(resolve(dirname(file), spec));
      if (to && to !== from) graph.set(from, new Set([...(graph.get(from) ?? []), to]));
    }
  }
  return graph;
}

/** The folders on a way from `start` back to `goal`, or undefined when there is none. */
function wayBack(start, goal) {
  const seen = new Set();
  const walk = (folder, path) => {
    if (folder === goal) return path;
    if (seen.has(folder)) return undefined;
    seen.add(folder);
    for (const next of folderGraph().get(folder) ?? []) {
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}

/**
 * Two server folders never import each other, directly or through others: the arrow between two
 * features points one way, and the other way goes through an event on `context.events`.
 */
export const folderLoops = {
  meta: {
    type: 'problem',
    docs: { description: 'Top folders of the server do not import each other in a loop.' },
    schema: [],
    messages: {
      loop: "'{{from}}' imports '{{to}}', which leads back to it ({{path}}): one of the two must not depend on the other.",
    },
  },
  create(context) {
    const from = folderOf(context.filename);
    if (!from || context.filename.endsWith('.test.ts')) return {};
    return onRelativeImports(context, (source, file) => {
      const to = folderOf(file);
      if (!to || to === from) return;
      const path = wayBack(to, from);
      if (path)
        context.report({ node: source, messageId: 'loop', data: { from, to, path: [from, ...path].join(' → ') } });
    });
  },
};
