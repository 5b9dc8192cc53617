import { ChevronLeftIcon, ChevronRightIcon, TvIcon } from 'lucide-react';
import { CHANNEL_CATEGORIES, type Channel, type ChannelCategory } from '@meetcast/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Avatar } from '../../components/avatar';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { FilterCheckbox, SearchBox } from '../../components/search-box';
import { PageSpinner } from '../../components/spinner';
import { imageUrl } from '../../lib/image-url';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { FollowButton, LiveBadge } from './channel-hero';
import { useChannelList } from './use-channels';

function ChannelCard({ channel, linkBase, canFollow }: { channel: Channel; linkBase: string; canFollow: boolean }) {
  const { t } = useTranslation('channels');
  const cover = imageUrl(channel.cover);
  return (
    <li className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="relative aspect-[3/1] bg-gradient-to-r from-primary-600 to-fuchsia-600">
        {cover && <img src={cover} alt="" className="size-full object-cover" />}
        {channel.is_live && (
          <span className="absolute start-3 top-3">
            <LiveBadge />
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-center gap-3">
          <Avatar name={channel.name} path={channel.avatar} className="size-10" />
          <div className="min-w-0">
            <Link
              to={`${linkBase}/${channel.slug}`}
              dir="auto"
              className="block truncate font-semibold text-slate-900 hover:underline dark:text-white"
            >
              {channel.name}
            </Link>
            <p className="text-xs text-slate-600 dark:text-slate-400">
              {t('hero.followers', { number: channel.followers_count })} · {t(`categories.${channel.category}`)}
            </p>
          </div>
        </div>
        {channel.description && (
          <p className="line-clamp-2 text-sm text-slate-700 dark:text-slate-300">{channel.description}</p>
        )}
        {canFollow && !channel.can_edit && (
          <div className="mt-auto">
            <FollowButton channel={channel} />
          </div>
        )}
      </div>
    </li>
  );
}

/** Browse and search public channels, live ones first; signed-in people can follow them. */
export function ChannelDirectory({ linkBase, isSignedIn }: { linkBase: string; isSignedIn: boolean }) {
  const { t } = useTranslation('channels');
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim());
  const [category, setCategory] = useState<ChannelCategory | ''>('');
  const [following, setFollowing] = useState(false);
  const [page, setPage] = useState(1);
  const list = useChannelList({ search, category, following, page }, { withToken: isSignedIn });
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <SearchBox
          value={searchText}
          onChange={(text) => {
            setSearchText(text);
            setPage(1);
          }}
          label={t('browse.search')}
        />
        <select
          value={category}
          aria-label={t('fields.category')}
          onChange={(event) => {
            setCategory(event.target.value as ChannelCategory | '');
            setPage(1);
          }}
          className="rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        >
          <option value="">{t('browse.all_categories')}</option>
          {CHANNEL_CATEGORIES.map((value) => (
            <option key={value} value={value}>
              {t(`categories.${value}`)}
            </option>
          ))}
        </select>
        {isSignedIn && (
          <FilterCheckbox
            checked={following}
            onChange={(checked) => {
              setFollowing(checked);
              setPage(1);
            }}
            label={t('browse.following')}
          />
        )}
      </div>
      {list.isPending ? (
        <PageSpinner label={t('loading')} />
      ) : list.isError ? (
        <EmptyState title={t('load_failed')} text={list.error.message} icon={TvIcon} />
      ) : data && data.total === 0 ? (
        <EmptyState title={t('browse.empty_title')} text={t('browse.empty')} icon={TvIcon} />
      ) : (
        data && (
          <>
            <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
              {data.data.map((channel) => (
                <ChannelCard key={channel.id} channel={channel} linkBase={linkBase} canFollow={isSignedIn} />
              ))}
            </ul>
            {pages > 1 && (
              <nav aria-label={t('browse.pages')} className="flex items-center justify-end gap-2 text-sm">
                <span className="text-slate-600 dark:text-slate-400">{t('browse.page', { page, pages })}</span>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={page <= 1}
                  onClick={() => setPage(page - 1)}
                  aria-label={t('browse.previous')}
                >
                  <ChevronLeftIcon className="size-4 rtl:rotate-180" />
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={page >= pages}
                  onClick={() => setPage(page + 1)}
                  aria-label={t('browse.next')}
                >
                  <ChevronRightIcon className="size-4 rtl:rotate-180" />
                </Button>
              </nav>
            )}
          </>
        )
      )}
    </div>
  );
}
