import { relative, resolve, sep } from 'node:path';
import { onRelativeImports } from './relative-imports.js';

const SERVER_SOURCE = resolve(import.meta.dirname, '../../apps/server/src');

/** The server's layers, lowest first (docs/ARCHITECTURE.md, "Layers of the server"). */
export const SERVER_LAYERS = [
  // The foundations are layered among themselves too: the messages and the mailer, HTTP on them,
  // the platform helpers on HTTP, and the configuration (which parses with platform helpers) on top.
  { name: 'messages and mail', entries: ['i18n', 'mail'] },
  { name: 'http', entries: ['http'] },
  { name: 'platform', entries: ['platform'] },
  { name: 'configuration', entries: ['env.ts'] },
  { name: 'shared services', entries: ['accounts', 'notifications', 'media', 'meeting-records'] },
  // The context names the shared services, so they take only the parts of it they use.
  { name: 'context', entries: ['context.ts', 'realtime'] },
  {
    name: 'features',
    entries: [
      'meetings',
      'rooms',
      'contacts',
      'channels',
      'profile',
      'oidc',
      'contact-us',
      'uploads',
      'streaming',
      'viewer-chat',
    ],
  },
  { name: 'administration', entries: ['admin'] },
  { name: 'composition', entries: ['app.ts', 'main.ts', 'index.ts', 'tooling.ts', 'composer-parts.ts', 'cli'] },
];

/** The layer of a file under apps/server/src (by its first folder, or its own name at the top). */
function layerOf(file) {
  const path = relative(SERVER_SOURCE, file);
  if (path.startsWith('..')) return undefined;
  const [entry = ''] = path.split(sep);
  const top = entry.replace(/(\.test)?\.(js|ts)$/, '.ts');
  const index = SERVER_LAYERS.findIndex((layer) => layer.entries.includes(top));
  return index === -1 ? { index: -1, entry: top } : { index, entry: top, name: SERVER_LAYERS[index].name };
}

/**
 * A server file imports only from its own layer or the ones below it, so that nothing low (the HTTP
 * layer, the accounts) ever depends on a feature, and a new top-level folder gets a layer on purpose.
 */
export const serverLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'Server files import only from their own layer or lower ones.' },
    schema: [],
    messages: {
      upward:
        "'{{from}}' ({{fromLayer}}) must not import '{{to}}' ({{toLayer}}): a layer imports only its own or lower ones.",
      unplaced:
        "'{{entry}}' has no layer: add it to SERVER_LAYERS in scripts/eslint/server-layers.js and to docs/ARCHITECTURE.md.",
    },
  },
  create(context) {
    const from = layerOf(context.filename);
    if (!from) return {};
    if (from.index === -1) {
      return {
        Program(node) {
          context.report({ node, messageId: 'unplaced', data: { entry: from.entry } });
        },
      };
    }
    return onRelativeImports(context, (source, file) => {
      const to = layerOf(file);
      if (!to || to.index <= from.index) return;
      context.report({
        node: source,
        messageId: 'upward',
        data: { from: from.entry, fromLayer: from.name, to: to.entry, toLayer: to.name ?? 'no layer' },
      });
    });
  },
};
