import { ADMIN_DEFAULT_PAGE_SIZE, type SortDirection } from '@meetcast/contracts';
import { asc, desc } from '@meetcast/db';
import { success, type ApiCall } from '../http/api-route.js';
import { containsPattern, escapeLike } from '../platform/text.js';

/** The slice of a table one request asks for. */
export interface Slice {
  limit: number;
  offset: number;
}

export function pageSlice(input: { page?: number | undefined; per_page?: number | undefined }) {
  const perPage = input.per_page ?? ADMIN_DEFAULT_PAGE_SIZE;
  const page = input.page ?? 1;
  return { page, perPage, slice: { limit: perPage, offset: (page - 1) * perPage } };
}

/** The handler of an admin list call: the page `list` reads, with the table's total. */
export function pageHandler<Query extends { page?: number | undefined; per_page?: number | undefined }, Row>(
  list: (query: Query, slice: Slice) => Promise<{ rows: Row[]; total: number }>,
) {
  return async (query: Query, { t }: ApiCall<'admin'>) => {
    const { page, perPage, slice } = pageSlice(query);
    const { rows, total } = await list(query, slice);
    return success(t('admin.list_ok'), { data: rows, total, page, per_page: perPage });
  };
}

/** A case-insensitive "contains" pattern; %, _ and \ in the search are matched literally. */
export function likePattern(search: string) {
  return containsPattern(search.toLowerCase());
}

/** A prefix pattern (can use a btree index on the lowered column). */
export function prefixPattern(search: string) {
  return `${escapeLike(search.toLowerCase())}%`;
}

/** Digits only: the search may also be an id. */
export function searchedId(search: string | undefined) {
  return search && /^\d{1,9}$/.test(search) ? Number(search) : undefined;
}

export function ordered(column: Parameters<typeof asc>[0], direction: SortDirection | undefined) {
  return direction === 'desc' ? desc(column) : asc(column);
}

/** Export reads every matching row, up to this many. */
export const EXPORT_LIMIT = 100_000;
