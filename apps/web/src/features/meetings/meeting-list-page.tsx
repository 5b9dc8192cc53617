import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type ComponentType, type SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/spinner';
import { MeetingCard } from './meeting-card';
import { useMeetingDialogs } from './meeting-dialogs';
import { meetingsApi } from './meetings-api';

const PER_PAGE = 10;

/** Upcoming and Recent Meetings: searchable, paginated, with honest empty states. */
export function MeetingListPage({
  kind,
  icon,
}: {
  kind: 'upcoming' | 'recent';
  icon: ComponentType<SVGProps<SVGSVGElement>>;
}) {
  const { t } = useTranslation('meetings');
  const dialogs = useMeetingDialogs();
  const searchId = useId();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed]);

  const list = useQuery({
    queryKey: ['meetings', kind, page, search],
    queryFn: () => meetingsApi[kind]({ page, per_page: PER_PAGE, search }),
    placeholderData: keepPreviousData,
  });
  const data = list.data?.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;

  return (
    <section>
      <PageHeader
        title={t(`${kind}.title`)}
        description={t(`${kind}.description`)}
        actions={
          kind === 'upcoming' ? (
            <Button onClick={() => dialogs.open('schedule')}>{t('upcoming.schedule')}</Button>
          ) : undefined
        }
      />
      <div className="mb-4 max-w-sm">
        <label htmlFor={searchId} className="sr-only">
          {t('search')}
        </label>
        <input
          id={searchId}
          type="search"
          value={typed}
          placeholder={t('search')}
          onChange={(event) => setTyped(event.target.value)}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        />
      </div>
      {list.isPending && <PageSpinner label={t('loading')} />}
      {list.isError && <EmptyState title={t('errors.load_title')} text={list.error.message} icon={icon} />}
      {data && data.total === 0 && (
        <EmptyState
          title={search ? t('search_empty_title') : t(`${kind}.empty_title`)}
          text={search ? t('search_empty', { search }) : t(`${kind}.empty_text`)}
          icon={icon}
        />
      )}
      {data && data.total > 0 && (
        <>
          <ul className="space-y-4" aria-label={t(`${kind}.title`)}>
            {data.data.map((item) => (
              <MeetingCard key={`${item.id}-${item.occurrence_start}`} item={item} isUpcoming={kind === 'upcoming'} />
            ))}
          </ul>
          <nav className="mt-6 flex items-center justify-between gap-4" aria-label={t('pager.label')}>
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('pager.previous')}
            </Button>
            <span className="text-sm text-slate-700 dark:text-slate-300">
              {t('pager.page', { page, pages, total: data.total })}
            </span>
            <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {t('pager.next')}
            </Button>
          </nav>
        </>
      )}
    </section>
  );
}
