import { MailIcon, PencilIcon, PhoneIcon, SendIcon, StarIcon, TrashIcon } from 'lucide-react';
import type { Contact, ContactSort } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/avatar';
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

function SortHeader({
  column,
  sort,
  order,
  onSort,
  children,
}: {
  column: ContactSort;
  sort: ContactSort;
  order: 'asc' | 'desc';
  onSort(column: ContactSort): void;
  children: string;
}) {
  const isActive = sort === column;
  return (
    <th
      scope="col"
      aria-sort={isActive ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
      className="px-3 py-3 text-start"
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex items-center gap-1 font-semibold uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-primary-500 dark:hover:text-white"
      >
        {children}
        <span aria-hidden="true" className={cn('text-[10px]', !isActive && 'opacity-30')}>
          {isActive && order === 'desc' ? '▼' : '▲'}
        </span>
      </button>
    </th>
  );
}

/** The address book as a table: sortable columns, favourites, and each contact's actions. */
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
  return (
    <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full min-w-[720px] text-sm">
        <caption className="sr-only">{t('table.caption')}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 dark:border-slate-800 dark:bg-slate-800/60 dark:text-slate-300">
          <tr>
            <th scope="col" className="w-10 px-3 py-3">
              <span className="sr-only">{t('table.favourite')}</span>
            </th>
            <SortHeader column="name" sort={sort} order={order} onSort={onSort}>
              {t('fields.name')}
            </SortHeader>
            <SortHeader column="email" sort={sort} order={order} onSort={onSort}>
              {t('fields.email')}
            </SortHeader>
            <th scope="col" className="px-3 py-3 text-start font-semibold uppercase">
              {t('fields.phone')}
            </th>
            <SortHeader column="company" sort={sort} order={order} onSort={onSort}>
              {t('fields.company')}
            </SortHeader>
            <th scope="col" className="px-3 py-3 text-end font-semibold uppercase">
              {t('table.actions')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {contacts.map((contact) => (
            <tr key={contact.id} className="hover:bg-slate-50/70 dark:hover:bg-slate-800/40">
              <td className="px-3 py-2">
                <button
                  type="button"
                  onClick={() => actions.onToggleFavourite(contact)}
                  aria-pressed={contact.is_favourite}
                  aria-label={t('actions.favourite', { name: contact.name })}
                  className={cn(ICON_BUTTON, contact.is_favourite && 'text-amber-500 dark:text-amber-400')}
                >
                  <StarIcon className="size-4" fill={contact.is_favourite ? 'currentColor' : 'none'} />
                </button>
              </td>
              <th scope="row" className="px-3 py-2 text-start font-medium text-slate-900 dark:text-white">
                <span className="flex items-center gap-3">
                  <Avatar
                    name={contact.user?.username ?? contact.name}
                    path={contact.user?.avatar}
                    className="size-8"
                  />
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
              </th>
              <td className="px-3 py-2 text-slate-700 dark:text-slate-300">
                {contact.email ? (
                  <a href={`mailto:${contact.email}`} className="inline-flex items-center gap-1 hover:underline">
                    <MailIcon className="size-3.5 shrink-0" />
                    {contact.email}
                  </a>
                ) : (
                  '—'
                )}
              </td>
              <td className="px-3 py-2 text-slate-700 dark:text-slate-300">{contact.phone || '—'}</td>
              <td className="px-3 py-2 text-slate-700 dark:text-slate-300">{contact.company || '—'}</td>
              <td className="px-3 py-2">
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
