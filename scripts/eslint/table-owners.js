import { relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const WRITES = new Set(['insert', 'update', 'delete']);

/**
 * Tables with one owner (ADR 013): `db.insert(table)`, `update(table)` and `delete(table)` on them
 * are allowed only inside the owner's folder; everybody else calls the owner's named operations.
 * The option maps each table's export name in '@meetcast/db' to its owner folder (from the root).
 */
export const tableOwners = {
  meta: {
    type: 'problem',
    docs: { description: 'Only the owner module of a table writes it.' },
    schema: [{ type: 'object', additionalProperties: { type: 'string' } }],
    messages: {
      foreignWrite: "Only {{owner}}/ writes the '{{table}}' table; call its repository instead (ADR 013).",
    },
  },
  create(context) {
    const owners = context.options[0] ?? {};
    const here = relative(ROOT, context.filename).split(sep).join('/');
    /** Local name → table name, for the owned tables this file imports from '@meetcast/db'. */
    const imported = new Map();
    return {
      ImportDeclaration(node) {
        if (node.source.value !== '@meetcast/db') return;
        for (const specifier of node.specifiers) {
          if (specifier.type !== 'ImportSpecifier') continue;
          const table = specifier.imported.name ?? specifier.imported.value;
          const owner = owners[table];
          if (owner && !here.startsWith(`${owner}/`)) imported.set(specifier.local.name, table);
        }
      },
      CallExpression(node) {
        const { callee } = node;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        if (!WRITES.has(callee.property.name)) return;
        const [target] = node.arguments;
        const table = target?.type === 'Identifier' ? imported.get(target.name) : undefined;
        if (table) context.report({ node, messageId: 'foreignWrite', data: { table, owner: owners[table] } });
      },
    };
  },
};
