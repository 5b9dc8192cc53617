import {
  ChevronLeftIcon,
  ChevronRightIcon,
  DownloadIcon,
  PlusIcon,
  SearchIcon,
  UploadIcon,
  UsersIcon,
} from 'lucide-react';
import { peopleCalls, type Contact, type ContactSort, meetingRoomPath } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { FilterCheckbox, SearchBox } from '../../components/search-box';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/spinner';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { ContactDialog } from './contact-dialog';
import { ContactsTable } from './contacts-table';
import { ImportDialog } from './import-dialog';
import { InviteDialog } from './invite-dialog';
import { useContactList, useRefreshContacts } from './use-contacts';

const PAGE_SIZES = [10, 20, 50, 100];

export default function ContactsPage() {
  const { t } = useTranslation('contacts');
  const navigate = useNavigate();
  const refresh = useRefreshContacts();
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim());
  const [sort, setSort] = useState<ContactSort>('name');
  const [order, setOrder] = useState<'asc' | 'desc'>('asc');
  const [favourites, setFavourites] = useState(false);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(20);
  const [editing, setEditing] = useState<Contact | undefined>();
  const [isEditorOpen, setIsEditorOpen] = useState(false);
  const [isImportOpen, setIsImportOpen] = useState(false);
  const [inviting, setInviting] = useState<Contact | undefined>();

  const list = useContactList({ search, sort, order, favourites, page, perPage });
  const data = list.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;
  // After deleting the last contact of the last page, show the page before it.
  if (data && !list.isPlaceholderData && page > pageCount) setPage(pageCount);

  const favourite = useMutation({
    mutationFn: (contact: Contact) =>
      api.call(peopleCalls.updateContact, { id: contact.id, is_favourite: !contact.is_favourite }),
    onSuccess: () => void refresh(),
  });
  const restore = useMutation({
    mutationFn: (id: number) => api.call(peopleCalls.restoreContact, { id }),
    onSuccess: (body) => {
      toast.success(body.message);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (contact: Contact) => api.call(peopleCalls.deleteContact, { id: contact.id }),
    onSuccess: (_body, contact) => {
      void refresh();
      toast(
        ({ closeToast }) => (
          <div className="flex items-center justify-between gap-3">
            <span>{t('deleted', { name: contact.name })}</span>
            <button
              type="button"
              onClick={() => {
                restore.mutate(contact.id);
                closeToast();
              }}
              className="rounded-md px-2 py-1 text-sm font-bold text-primary-700 underline hover:bg-primary-50 dark:text-primary-300 dark:hover:bg-primary-950"
            >
              {t('actions.undo')}
            </button>
          </div>
        ),
        { autoClose: 8000 },
      );
    },
  });
  const call = useMutation({
    mutationFn: (contact: Contact) => api.call(peopleCalls.callContact, { id: contact.id }),
    onSuccess: (body) => {
      toast.success(body.message);
      void navigate(meetingRoomPath(body.data));
    },
  });
  const exportCsv = useMutation({
    mutationFn: () => api.call(peopleCalls.exportContacts, {}),
    onSuccess: (body) => downloadFile(body.data.filename, body.data.csv, 'text/csv;charset=utf-8'),
  });

  const onSort = (column: ContactSort) => {
    if (column === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
    else {
      setSort(column);
      setOrder('asc');
    }
    setPage(1);
  };
  const openEditor = (contact?: Contact) => {
    setEditing(contact);
    setIsEditorOpen(true);
  };
  const isFiltered = search !== '' || favourites;

  return (
    <section>
      <PageHeader
        title={t('title')}
        description={t('subtitle')}
        actions={
          <>
            <Button variant="secondary" onClick={() => setIsImportOpen(true)}>
              <UploadIcon className="size-4" />
              {t('actions.import')}
            </Button>
            <Button variant="secondary" onClick={() => exportCsv.mutate()} isLoading={exportCsv.isPending}>
              <DownloadIcon className="size-4" />
              {t('actions.export')}
            </Button>
            <Button onClick={() => openEditor()}>
              <PlusIcon className="size-4" />
              {t('actions.add_contact')}
            </Button>
          </>
        }
      />

      <div className="mb-4 flex flex-wrap items-center gap-3">
        <SearchBox
          value={searchText}
          onChange={(text) => {
            setSearchText(text);
            setPage(1);
          }}
          label={t('search')}
        />
        <FilterCheckbox
          checked={favourites}
          onChange={(checked) => {
            setFavourites(checked);
            setPage(1);
          }}
          label={t('favourites_only')}
        />
      </div>

      {list.isPending ? (
        <PageSpinner label={t('loading')} />
      ) : list.isError ? (
        <EmptyState title={t('load_failed')} text={list.error.message} icon={UsersIcon} />
      ) : data && data.total === 0 ? (
        isFiltered ? (
          <EmptyState title={t('no_match_title')} text={t('no_match')} icon={SearchIcon} />
        ) : (
          <EmptyState
            title={t('empty_title')}
            text={t('empty')}
            icon={UsersIcon}
            action={<Button onClick={() => openEditor()}>{t('actions.add_contact')}</Button>}
          />
        )
      ) : (
        data && (
          <>
            <ContactsTable
              contacts={data.data}
              sort={sort}
              order={order}
              onSort={onSort}
              actions={{
                onToggleFavourite: (contact) => favourite.mutate(contact),
                onEdit: openEditor,
                onDelete: (contact) => remove.mutate(contact),
                onCall: (contact) => call.mutate(contact),
                onInvite: setInviting,
                isCalling: call.isPending ? call.variables.id : undefined,
              }}
            />
            <nav
              aria-label={t('pagination.label')}
              className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700 dark:text-slate-300"
            >
              <span>{t('pagination.summary', { count: data.total, page: data.page, pages: pageCount })}</span>
              <div className="flex items-center gap-2">
                <label className="flex items-center gap-2">
                  {t('pagination.per_page')}
                  <select
                    value={perPage}
                    onChange={(event) => {
                      setPerPage(Number(event.target.value));
                      setPage(1);
                    }}
                    className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-900"
                  >
                    {PAGE_SIZES.map((size) => (
                      <option key={size} value={size}>
                        {size}
                      </option>
                    ))}
                  </select>
                </label>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={page <= 1}
                  onClick={() => setPage(page - 1)}
                  aria-label={t('pagination.previous')}
                >
                  <ChevronLeftIcon className="size-4 rtl:rotate-180" />
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={page >= pageCount}
                  onClick={() => setPage(page + 1)}
                  aria-label={t('pagination.next')}
                >
                  <ChevronRightIcon className="size-4 rtl:rotate-180" />
                </Button>
              </div>
            </nav>
          </>
        )
      )}

      <ContactDialog open={isEditorOpen} onOpenChange={setIsEditorOpen} contact={editing} />
      <ImportDialog open={isImportOpen} onOpenChange={setIsImportOpen} />
      <InviteDialog contact={inviting} onClose={() => setInviting(undefined)} />
    </section>
  );
}
