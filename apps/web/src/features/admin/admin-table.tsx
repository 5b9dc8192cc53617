import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { SearchBox } from '../../components/search-box';
import { cn } from '../../lib/cn';
import { useFormat } from './format';
import type { TableControls } from './use-table-state';

const PAGE_SIZES = [10, 25, 50, 100];

export const INPUT_CLASSES =
  'h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 focus:outline-none dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';

export interface AdminListQuery<Row> {
  data?: { data: { data: Row[]; total: number } } | undefined;
  isFetching: boolean;
  error: Error | null;
}

export interface AdminTableProps<Row> {
  /** Names the table for screen readers. */
  label: string;
  columns: ColumnDef<Row, unknown>[];
  /** The list call's query: its page of rows and total, whether it is loading, and its failure. */
  list: AdminListQuery<Row>;
  controls: TableControls;
  getRowId: (row: Row) => string;
  /** Row selection for bulk actions (checkbox column added in front). */
  selection?: { value: RowSelectionState; onChange: (next: RowSelectionState) => void; label: (row: Row) => string };
  /** Filters and buttons beside the search box. */
  toolbar?: ReactNode;
  /** Shown above the table while rows are selected. */
  bulkActions?: ReactNode;
  searchLabel: string;
}

/**
 * A server-driven table (TanStack Table in manual mode): the server searches, sorts and pages; the
 * column ids are the sort names the list call accepts.
 */
export function AdminTable<Row>({
  label,
  columns,
  list,
  controls,
  getRowId,
  selection,
  toolbar,
  bulkActions,
  searchLabel,
}: AdminTableProps<Row>) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const { state } = controls;
  const rows = list.data?.data.data ?? [];
  const total = list.data?.data.total ?? 0;
  const isLoading = list.isFetching;
  const error = list.error?.message;
  const pageCount = Math.max(1, Math.ceil(total / state.perPage));
  const sorting: SortingState = state.sort ? [{ id: state.sort, desc: state.direction === 'desc' }] : [];

  const allColumns = useMemo<ColumnDef<Row, unknown>[]>(() => {
    if (!selection) return columns;
    const select: ColumnDef<Row, unknown> = {
      id: 'select',
      enableSorting: false,
      header: ({ table }) => (
        <input
          type="checkbox"
          aria-label={t('table.select_page')}
          className="size-4 accent-primary-600"
          checked={table.getIsAllPageRowsSelected()}
          ref={(element) => {
            if (element) element.indeterminate = table.getIsSomePageRowsSelected();
          }}
          onChange={table.getToggleAllPageRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <input
          type="checkbox"
          aria-label={t('table.select_row', { name: selection.label(row.original) })}
          className="size-4 accent-primary-600"
          checked={row.getIsSelected()}
          disabled={!row.getCanSelect()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    };
    return [select, ...columns];
  }, [columns, selection, t]);

  // TanStack Table keeps its own state and memoization; React Compiler skipping this hook is expected.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns: allColumns,
    getRowId,
    manualSorting: true,
    manualPagination: true,
    pageCount,
    enableRowSelection: Boolean(selection),
    state: {
      sorting,
      pagination: { pageIndex: state.page - 1, pageSize: state.perPage },
      rowSelection: selection?.value ?? {},
    },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const [first] = next;
      controls.setSort(first?.id, first?.desc ? 'desc' : 'asc');
    },
    onRowSelectionChange: (updater) => {
      if (!selection) return;
      selection.onChange(typeof updater === 'function' ? updater(selection.value) : updater);
    },
    getCoreRowModel: getCoreRowModel(),
  });

  const first = total === 0 ? 0 : (state.page - 1) * state.perPage + 1;
  const last = Math.min(total, state.page * state.perPage);
  const selectedCount = Object.values(selection?.value ?? {}).filter(Boolean).length;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox
          value={controls.searchText}
          onChange={controls.setSearchText}
          label={searchLabel}
          className="min-w-64"
        />
        {toolbar}
      </div>

      {selection && (
        // Always present (no layout jump while rows are ticked); its buttons work once rows are selected.
        <div
          role="region"
          aria-label={t('table.bulk_actions')}
          className="flex min-h-12 flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-slate-50 px-4 py-2 text-sm dark:border-slate-700 dark:bg-slate-800/50"
        >
          <span aria-live="polite" className="font-medium text-slate-800 dark:text-slate-200">
            {selectedCount > 0 ? t('table.selected', { total: format.number(selectedCount) }) : t('table.select_hint')}
          </span>
          <fieldset disabled={selectedCount === 0} className="flex flex-wrap gap-2 disabled:opacity-50">
            <legend className="sr-only">{t('table.bulk_actions')}</legend>
            {bulkActions}
          </fieldset>
        </div>
      )}

      <DataTable
        table={table}
        label={label}
        isLoading={isLoading}
        empty={error ?? t('table.empty')}
        loadingLabel={t('table.loading')}
      />

      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600 dark:text-slate-400">
        <p aria-live="polite">
          {t('table.showing', { first: format.number(first), last: format.number(last), total: format.number(total) })}
        </p>
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-2">
            {t('table.per_page')}
            <select
              value={state.perPage}
              onChange={(event) => controls.setPerPage(Number(event.target.value))}
              className={cn(INPUT_CLASSES, 'h-9')}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            onClick={() => controls.setPage(state.page - 1)}
            disabled={state.page <= 1}
            className="h-9 rounded-lg border border-slate-300 px-3 font-medium hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            {t('table.previous')}
          </button>
          <span>{t('table.page_of', { page: format.number(state.page), pages: format.number(pageCount) })}</span>
          <button
            type="button"
            onClick={() => controls.setPage(state.page + 1)}
            disabled={state.page >= pageCount}
            className="h-9 rounded-lg border border-slate-300 px-3 font-medium hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            {t('table.next')}
          </button>
        </div>
      </div>
    </div>
  );
}

/** A labelled select for the toolbar. */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400">
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value)} className={INPUT_CLASSES}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
