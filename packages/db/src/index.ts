export * from './client.js';
export * from './errors.js';
export { lockPgliteFolder, PgliteInUseError } from './pglite-lock.js';
export * from './schema/index.js';
export {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  notInArray,
  isNull,
  isNotNull,
  lt,
  lte,
  ne,
  or,
  sql,
  count,
} from 'drizzle-orm';
