import { adminCalls, REPEAT, type AdminEvent } from '@meetcast/contracts';
import {
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { DataTable } from '../../components/data-table';
import { Dialog } from '../../components/dialog';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import type { WebCallInput } from '../../lib/api';
import { cn } from '../../lib/cn';
import { useAdminAction, useAdminQuery } from './admin-api';
import { FilterSelect, INPUT_CLASSES } from './admin-table';
import { useFormat } from './format';
import { Badge, ExportButton, PersonCell, RowButton, useConfirmation } from './parts';

// FullCalendar is large: it loads only when the calendar view is shown.
const EventsCalendar = lazy(() => import('./events-calendar'));

const REPEATING = new Set<number>([REPEAT.daily, REPEAT.weekly, REPEAT.biweekly, REPEAT.monthly]);
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** /admin/events: every calendar event and meeting occurrence, as a month calendar and as a table. */
export default function AdminEventsPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const [month, setMonth] = useState(() => new Date(new Date().getFullYear(), new Date().getMonth(), 1));
  const [view, setView] = useState<'calendar' | 'table'>('calendar');
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState('');
  const [selected, setSelected] = useState<AdminEvent | null>(null);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'start_time', desc: false }]);
  const confirmation = useConfirmation();
  const ask = confirmation.ask;
  const deleteEvent = useAdminAction(adminCalls.deleteEvent).mutateAsync;

  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchText.trim()), 300);
    return () => clearTimeout(timer);
  }, [searchText]);

  // A week of margin on each side covers the days a month grid shows from its neighbours.
  const range = useMemo(
    () => ({
      start: seconds(new Date(month.getFullYear(), month.getMonth(), -6)),
      end: seconds(new Date(month.getFullYear(), month.getMonth() + 1, 15)),
    }),
    [month],
  );
  const monthRange = {
    start: seconds(month),
    end: seconds(new Date(month.getFullYear(), month.getMonth() + 1, 1)),
  };
  const fields: WebCallInput<typeof adminCalls.getEvents> = {
    ...range,
    search: search || undefined,
    kind: kind === 'event' || kind === 'meeting' ? kind : undefined,
  };
  const { data, isFetching, error } = useAdminQuery(adminCalls.getEvents, fields);
  const events = useMemo(() => data?.data.data ?? [], [data]);
  const monthEvents = useMemo(
    () =>
      events.filter(
        (event) =>
          event.start_time < monthRange.end && Math.max(event.end_time, event.start_time + 1) > monthRange.start,
      ),
    [events, monthRange.start, monthRange.end],
  );

  const askDelete = useMemo(
    () => (event: AdminEvent) => {
      const isOccurrence = event.kind === 'meeting' && REPEATING.has(event.repeat);
      const which = event.kind === 'event' ? 'event' : isOccurrence ? 'occurrence' : 'meeting';
      ask({
        title: t(`events.confirm.${which}_title`, { name: event.title, date: format.dateTime(event.start_time) }),
        text: t(`events.confirm.${which}_text`, { date: format.dateTime(event.start_time) }),
        confirmLabel: t(isOccurrence ? 'events.cancel_occurrence' : 'actions.delete'),
        isDanger: true,
        onConfirm: async () => {
          await deleteEvent({
            kind: event.kind,
            id: event.id,
            occurrence_start: isOccurrence ? event.start_time : undefined,
          });
          setSelected(null);
        },
      });
    },
    [ask, deleteEvent, format, t],
  );

  const columns = useMemo<ColumnDef<AdminEvent, unknown>[]>(
    () => [
      {
        id: 'title',
        accessorFn: (event) => event.title.toLowerCase(),
        header: t('events.columns.title'),
        cell: ({ row }) => <span className="font-medium text-slate-900 dark:text-white">{row.original.title}</span>,
      },
      {
        id: 'kind',
        accessorKey: 'kind',
        header: t('events.columns.kind'),
        cell: ({ row }) => (
          <Badge tone={row.original.kind === 'meeting' ? 'blue' : 'violet'}>
            {t(`events.kinds.${row.original.kind}`)}
          </Badge>
        ),
      },
      {
        id: 'owner',
        accessorFn: (event) => event.owner.username.toLowerCase(),
        header: t('events.columns.owner'),
        cell: ({ row }) => <PersonCell name={row.original.owner.username} email={row.original.owner.email} />,
      },
      {
        id: 'start_time',
        accessorKey: 'start_time',
        header: t('events.columns.start'),
        cell: ({ row }) => format.dateTime(row.original.start_time),
      },
      {
        id: 'end_time',
        accessorKey: 'end_time',
        header: t('events.columns.end'),
        cell: ({ row }) => format.dateTime(row.original.end_time),
      },
      {
        id: 'repeat',
        accessorKey: 'repeat',
        header: t('events.columns.repeat'),
        cell: ({ row }) =>
          row.original.kind === 'meeting' ? t(`repeat.${row.original.repeat}`, { defaultValue: '' }) : '',
      },
      {
        id: 'actions',
        enableSorting: false,
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        cell: ({ row }) => (
          <RowButton
            isDanger
            onClick={() => askDelete(row.original)}
            label={t('actions.delete_named', { name: row.original.title })}
          >
            {t('actions.delete')}
          </RowButton>
        ),
      },
    ],
    [t, format, askDelete],
  );

  // TanStack Table keeps its own state and memoization; React Compiler skipping this hook is expected.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: monthEvents,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId: (event) => event.key,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  const monthName = new Intl.DateTimeFormat(format.language, { month: 'long', year: 'numeric' }).format(month);
  const shift = (delta: number) => setMonth(new Date(month.getFullYear(), month.getMonth() + delta, 1));

  return (
    <section className="space-y-4">
      <PageHeader
        title={t('events.title')}
        description={t('events.description')}
        actions={<ExportButton table="events" fields={{ ...monthRange, search: search || undefined }} />}
      />
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex items-center gap-2">
          <Button variant="secondary" size="sm" onClick={() => shift(-1)} aria-label={t('events.previous_month')}>
            ‹
          </Button>
          <h2
            className="min-w-40 text-center text-lg font-semibold text-slate-900 capitalize dark:text-white"
            aria-live="polite"
          >
            {monthName}
          </h2>
          <Button variant="secondary" size="sm" onClick={() => shift(1)} aria-label={t('events.next_month')}>
            ›
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setMonth(new Date(new Date().getFullYear(), new Date().getMonth(), 1))}
          >
            {t('events.today')}
          </Button>
        </div>
        <label className="flex-1">
          <span className="sr-only">{t('events.search')}</span>
          <input
            type="search"
            value={searchText}
            maxLength={100}
            onChange={(event) => setSearchText(event.target.value)}
            placeholder={t('events.search')}
            className={cn(INPUT_CLASSES, 'w-full')}
          />
        </label>
        <FilterSelect
          label={t('events.columns.kind')}
          value={kind}
          onChange={setKind}
          options={[
            { value: '', label: t('filters.all') },
            { value: 'event', label: t('events.kinds.event') },
            { value: 'meeting', label: t('events.kinds.meeting') },
          ]}
        />
        <div
          role="group"
          aria-label={t('events.view')}
          className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-600"
        >
          {(['calendar', 'table'] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={view === option}
              onClick={() => setView(option)}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-medium',
                view === option
                  ? 'bg-primary-600 text-white'
                  : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
              )}
            >
              {t(`events.views.${option}`)}
            </button>
          ))}
        </div>
      </div>

      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error.message}
        </p>
      )}
      {data?.data.truncated && <p className="text-sm text-amber-800 dark:text-amber-200">{t('events.truncated')}</p>}

      {view === 'calendar' ? (
        <Suspense fallback={<Spinner label={t('table.loading')} />}>
          <EventsCalendar month={month} events={events} onSelect={setSelected} />
        </Suspense>
      ) : (
        <DataTable
          table={table}
          label={t('events.title')}
          isLoading={isFetching}
          empty={t('events.empty')}
          loadingLabel={t('table.loading')}
        />
      )}

      <Dialog
        open={selected !== null}
        onOpenChange={(open) => !open && setSelected(null)}
        title={selected?.title ?? ''}
        description={selected ? t(`events.kinds.${selected.kind}`) : undefined}
      >
        {selected && (
          <div className="space-y-4 text-sm">
            <dl className="grid grid-cols-2 gap-3">
              <div>
                <dt className="text-xs text-slate-500">{t('events.columns.start')}</dt>
                <dd>{format.dateTime(selected.start_time)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{t('events.columns.end')}</dt>
                <dd>{format.dateTime(selected.end_time)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{t('events.columns.owner')}</dt>
                <dd>
                  <PersonCell name={selected.owner.username} email={selected.owner.email} />
                </dd>
              </div>
              {selected.kind === 'meeting' && (
                <div>
                  <dt className="text-xs text-slate-500">{t('events.columns.repeat')}</dt>
                  <dd>{t(`repeat.${selected.repeat}`, { defaultValue: '' })}</dd>
                </div>
              )}
            </dl>
            <div className="flex justify-end">
              <Button variant="danger" onClick={() => askDelete(selected)}>
                {selected.kind === 'meeting' && REPEATING.has(selected.repeat)
                  ? t('events.cancel_occurrence')
                  : t('actions.delete')}
              </Button>
            </div>
          </div>
        )}
      </Dialog>
      {confirmation.dialog}
    </section>
  );
}
