import { ADMIN_DEFAULT_PAGE_SIZE, type SortDirection } from '@meetcast/contracts';
import { useEffect, useMemo, useState } from 'react';

export interface TableState {
  search: string;
  sort: string | undefined;
  direction: SortDirection;
  page: number;
  perPage: number;
  filters: Record<string, string>;
}

const SEARCH_DELAY_MS = 300;

/** Search (debounced), sort, page and filters of one admin table, and the fields its list call takes. */
export function useTableState(initial: Partial<TableState> = {}) {
  const [state, setState] = useState<TableState>({
    search: '',
    sort: undefined,
    direction: 'desc',
    page: 1,
    perPage: ADMIN_DEFAULT_PAGE_SIZE,
    filters: {},
    ...initial,
  });
  const [searchText, setSearchText] = useState(state.search);

  useEffect(() => {
    const timer = setTimeout(
      () =>
        setState((current) =>
          current.search === searchText.trim() ? current : { ...current, search: searchText.trim(), page: 1 },
        ),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [searchText]);

  const fields = useMemo(
    () => ({
      search: state.search || undefined,
      sort: state.sort,
      direction: state.sort ? state.direction : undefined,
      page: state.page,
      per_page: state.perPage,
      ...Object.fromEntries(Object.entries(state.filters).filter(([, value]) => value !== '')),
    }),
    [state],
  );

  return {
    state,
    fields,
    searchText,
    setSearchText,
    setSort: (sort: string | undefined, direction: SortDirection) =>
      setState((current) => ({ ...current, sort, direction, page: 1 })),
    setPage: (page: number) => setState((current) => ({ ...current, page })),
    setPerPage: (perPage: number) => setState((current) => ({ ...current, perPage, page: 1 })),
    setFilter: (name: string, value: string) =>
      setState((current) => ({ ...current, filters: { ...current.filters, [name]: value }, page: 1 })),
  };
}

export type TableControls = ReturnType<typeof useTableState>;
