import { folderLoops } from './folder-loops.js';
import { serverLayers } from './server-layers.js';
import { tableOwners } from './table-owners.js';
import { relative, resolve, sep } from 'node:path';
import { onRelativeImports } from './relative-imports.js';

const WEB_SOURCE = resolve(import.meta.dirname, '../../apps/web/src');

/** Where a file of the web app sits: a feature folder, a shared folder, or the app frame. */
function placeOf(file) {
  const [top, feature, ...rest] = relative(WEB_SOURCE, file).split(sep);
  if (top === 'features' && feature && rest.length > 0) return { kind: 'feature', feature, rest: rest.join('/') };
  if (top === 'features' && feature) return { kind: 'feature', feature, rest: '' };
  if (top === 'lib' || top === 'components') return { kind: 'shared', name: top };
  if (top && !top.startsWith('..')) return { kind: 'other', name: top };
  return { kind: 'outside' };
}

/**
 * Feature folders talk to each other only through their index.ts, and lib/ and components/ (shared
 * by all features) never reach into a feature. The app frame (app/: the route table) may lazy-load
 * any page, since that is what keeps every page its own chunk. lib/ is the ground floor: it imports
 * nothing else of the web app (the translations, the app frame and the components build on it).
 */
export const featureBorders = {
  meta: {
    type: 'problem',
    docs: { description: 'Features import each other only through index.ts; shared folders import no feature.' },
    schema: [],
    messages: {
      deep: "Import '{{feature}}' through its index ('{{suggestion}}'), or export this from its index.ts on purpose.",
      shared: "{{name}}/ is shared by every feature and must not import the '{{feature}}' feature.",
      ground: "lib/ is the ground floor of the web app and must not import {{name}}/: let {{name}}/ hand in what lib/ needs.",
    },
  },
  create(context) {
    const from = placeOf(context.filename);
    if (from.kind === 'other' || from.kind === 'outside') return {};
    return onRelativeImports(context, (source, file) => {
      const target = placeOf(file);
      if (from.name === 'lib' && target.kind !== 'outside' && target.name !== 'lib') {
        const name = target.kind === 'feature' ? 'features' : target.name;
        context.report({ node: source, messageId: 'ground', data: { name } });
        return;
      }
      if (target.kind !== 'feature') return;
      if (from.kind === 'shared') {
        context.report({ node: source, messageId: 'shared', data: { name: from.name, feature: target.feature } });
        return;
      }
      if (target.feature === from.feature) return;
      if (target.rest === '' || target.rest === 'index' || target.rest === 'index.ts') return;
      const suggestion = source.value.slice(0, source.value.length - target.rest.length - 1);
      context.report({ node: source, messageId: 'deep', data: { feature: target.feature, suggestion } });
    });
  },
};

export default {
  rules: {
    'feature-borders': featureBorders,
    'folder-loops': folderLoops,
    'server-layers': serverLayers,
    'table-owners': tableOwners,
  },
};
