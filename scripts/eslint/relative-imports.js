import { dirname, resolve } from 'node:path';

/**
 * The visitors that call `check(source, file)` for every relative import, re-export and dynamic
 * import of the file being linted: `source` is the string literal (where to report), `file` the
 * absolute path it names.
 */
export function onRelativeImports(context, check) {
  const visit = (node) => {
    const source = node.source;
    if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
    if (!source.value.startsWith('.')) return;
    check(source, resolve(dirname(context.filename), source.value));
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
  };
}
