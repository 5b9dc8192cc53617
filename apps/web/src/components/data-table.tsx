import { flexRender, type RowData, type Table } from '@tanstack/react-table';
import { ChevronDownIcon, ChevronUpIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { Spinner } from './spinner';

declare module '@tanstack/react-table' {
  // Column options the table reads; TanStack's own type is augmented so each column can carry them.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The cell names its row for screen readers (`<th scope="row">`). */
    isRowHeader?: boolean;
    /** Cell and header sit at the end of the line (actions). */
    alignEnd?: boolean;
    /** Extra classes of the column's header and cells (a narrow icon column). */
    className?: string;
  }
}

export interface DataTableProps<Row> {
  /** A TanStack table: sorting and paging are its own (client side) or the caller's (server side). */
  table: Table<Row>;
  /** Names the table for screen readers. */
  label: string;
  isLoading?: boolean;
  /** Said in the table when it has no rows and is not loading (pages with an empty state of their own leave it out). */
  empty?: ReactNode;
  loadingLabel?: string;
  /** Extra classes of the table element (a minimum width for wide tables). */
  className?: string;
}

/**
 * Every list of rows in the app: sortable column headers (a button with the direction as
 * `aria-sort`), rows, and one line for "loading" or "nothing here". Search, filters and paging
 * stay with the page, which knows whether the server or the browser does them.
 */
export function DataTable<Row>({ table, label, isLoading, empty, loadingLabel, className }: DataTableProps<Row>) {
  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;
  return (
    <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <table className={cn('min-w-full text-sm', className)} aria-label={label} aria-busy={isLoading || undefined}>
        <thead className="bg-slate-50 text-start text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/60 dark:text-slate-300">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const meta = header.column.columnDef.meta;
                const content = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                    className={cn(
                      'px-4 py-3 whitespace-nowrap',
                      meta?.alignEnd ? 'text-end' : 'text-start',
                      meta?.className,
                    )}
                  >
                    {header.column.getCanSort() ? (
                      <button
                        type="button"
                        onClick={header.column.getToggleSortingHandler()}
                        className="inline-flex items-center gap-1 uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-primary-500 dark:hover:text-white"
                      >
                        {content}
                        {sorted === 'asc' && <ChevronUpIcon className="size-3.5" />}
                        {sorted === 'desc' && <ChevronDownIcon className="size-3.5" />}
                      </button>
                    ) : (
                      content
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr
              key={row.id}
              data-state={row.getIsSelected() ? 'selected' : undefined}
              className="hover:bg-slate-50 data-[state=selected]:bg-primary-50/60 dark:hover:bg-slate-800/40 dark:data-[state=selected]:bg-primary-500/10"
            >
              {row.getVisibleCells().map((cell) => {
                const meta = cell.column.columnDef.meta;
                const Cell = meta?.isRowHeader ? 'th' : 'td';
                return (
                  <Cell
                    key={cell.id}
                    scope={meta?.isRowHeader ? 'row' : undefined}
                    className={cn(
                      'px-4 py-3 align-middle text-slate-800 dark:text-slate-200',
                      meta?.isRowHeader && 'text-start font-medium text-slate-900 dark:text-white',
                      meta?.alignEnd && 'text-end',
                      meta?.className,
                    )}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Cell>
                );
              })}
            </tr>
          ))}
          {rows.length === 0 && (isLoading || empty) && (
            <tr>
              <td colSpan={columnCount} className="px-4 py-12 text-center text-slate-600 dark:text-slate-400">
                {isLoading ? <Spinner label={loadingLabel ?? ''} /> : empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
