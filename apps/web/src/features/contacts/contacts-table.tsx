import { getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import type { Contact, ContactSort } from '@meetcast/contracts';
import { MailIcon, PencilIcon, PhoneIcon, SendIcon, StarIcon, TrashIcon } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/avatar';
import { DataTable } from '../../components/data-table';
import { cn } from '../../lib/cn';

const ICON_BUTTON =
  'inline-flex size-8 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-primary-500 disabled:opacity-40 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';

export interface ContactActions {
  onToggleFavourite(contact: Contact): void;
  onEdit(contact: Contact): void;
  onDelete(contact: Contact): void;
  onCall(contact: Contact): void;
  onInvite(contact: Contact): void;
  isCalling: number | undefined;
}

/** The address book as a table: the server sorts by name, e-mail or company; favourites and each contact's actions. */
export function ContactsTable({
  contacts,
  sort,
  order,
  onSort,
  actions,
}: {
  contacts: Contact[];
  sort: ContactSort;
  order: 'asc' | 'desc';
  onSort(column: ContactSort): void;
  actions: ContactActions;
}) {
  const { t } = useTranslation('contacts');
  const sorting: SortingState = [{ id: sort, desc: order === 'desc' }];
  const columns = useMemo<ColumnDef<Contact>[]>(
    () => [
      {
        id: 'favourite',
        header: () => <span className="sr-only">{t('table.favourite')}</span>,
        enableSorting: false,
        meta: { className: 'w-10' },
        cell: ({ row: { original: contact } }) => (
          <button
            type="button"
            onClick={() => actions.onToggleFavourite(contact)}
            aria-pressed={contact.is_favourite}
            aria-label={t('actions.favourite', { name: contact.name })}
            className={cn(ICON_BUTTON, contact.is_favourite && 'text-amber-500 dark:text-amber-400')}
          >
            <StarIcon className="size-4" fill={contact.is_favourite ? 'currentColor' : 'none'} />
          </button>
        ),
      },
      {
        id: 'name',
        // An accessor makes the header a sort button (the server sorts: manualSorting).
        accessorFn: (contact) => contact.name,
        header: t('fields.name'),
        meta: { isRowHeader: true },
        cell: ({ row: { original: contact } }) => (
          <span className="flex items-center gap-3">
            <Avatar name={contact.user?.username ?? contact.name} path={contact.user?.avatar} className="size-8" />
            <span className="min-w-0">
              <span dir="auto" className="block truncate">
                {contact.name}
              </span>
              {contact.user && (
                <span className="block text-xs font-normal text-primary-700 dark:text-primary-300">
                  {t('table.on_meetcast', { username: contact.user.username })}
                </span>
              )}
            </span>
          </span>
        ),
      },
      {
        id: 'email',
        accessorFn: (contact) => contact.email,
        header: t('fields.email'),
        cell: ({ row: { original: contact } }) =>
          contact.email ? (
            <a href={`mailto:${contact.email}`} className="inline-flex items-center gap-1 hover:underline">
              <MailIcon className="size-3.5 shrink-0" />
              {contact.email}
            </a>
          ) : (
            '—'
          ),
      },
      { id: 'phone', header: t('fields.phone'), enableSorting: false, cell: ({ row }) => row.original.phone || '—' },
      {
        id: 'company',
        accessorFn: (contact) => contact.company,
        header: t('fields.company'),
        cell: ({ row }) => row.original.company || '—',
      },
      {
        id: 'actions',
        header: t('table.actions'),
        enableSorting: false,
        meta: { alignEnd: true },
        cell: ({ row: { original: contact } }) => (
          <div className="flex items-center justify-end gap-1">
            {contact.user && (
              <button
                type="button"
                onClick={() => actions.onCall(contact)}
                disabled={actions.isCalling !== undefined}
                className="inline-flex h-8 items-center gap-1.5 rounded-lg bg-emerald-600 px-2.5 text-xs font-semibold text-white hover:bg-emerald-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 disabled:opacity-60 dark:bg-emerald-500 dark:text-slate-950"
              >
                <PhoneIcon className="size-3.5" />
                {t('actions.call')}
              </button>
            )}
            <button
              type="button"
              onClick={() => actions.onInvite(contact)}
              disabled={!contact.email}
              aria-label={t('actions.invite', { name: contact.name })}
              title={t('actions.invite', { name: contact.name })}
              className={ICON_BUTTON}
            >
              <SendIcon className="size-4" />
            </button>
            <button
              type="button"
              onClick={() => actions.onEdit(contact)}
              aria-label={t('actions.edit', { name: contact.name })}
              title={t('actions.edit', { name: contact.name })}
              className={ICON_BUTTON}
            >
              <PencilIcon className="size-4" />
            </button>
            <button
              type="button"
              onClick={() => actions.onDelete(contact)}
              aria-label={t('actions.delete', { name: contact.name })}
              title={t('actions.delete', { name: contact.name })}
              className={cn(ICON_BUTTON, 'hover:text-red-700 dark:hover:text-red-400')}
            >
              <TrashIcon className="size-4" />
            </button>
          </div>
        ),
      },
    ],
    [t, actions],
  );

  // TanStack Table keeps its own state and memoization; React Compiler skipping this hook is expected.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: contacts,
    columns,
    getRowId: (contact) => String(contact.id),
    manualSorting: true,
    enableSortingRemoval: false,
    state: { sorting },
    // The page flips the order when the sorted column is chosen again, as before.
    onSortingChange: (updater) => {
      const [first] = typeof updater === 'function' ? updater(sorting) : updater;
      if (first) onSort(first.id as ContactSort);
    },
    getCoreRowModel: getCoreRowModel(),
  });

  return <DataTable table={table} label={t('table.caption')} empty={null} loadingLabel="" className="min-w-[720px]" />;
}
