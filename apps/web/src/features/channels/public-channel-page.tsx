import { TvIcon } from 'lucide-react';
import type { Channel, ChannelPage } from '@meetcast/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageSpinner } from '../../components/spinner';
import { ChannelMessage } from './channel-message';
import { useCurrentUser } from '../session';
import { ChannelPageView } from './channel-page-view';
import { ChannelStage, useFollowedStage } from './channel-stage';
import { usePrefetchBroadcastViewer } from './player/use-broadcast-viewer';
import { useChannelPage, useFollow } from './use-channels';

/** `/channel/{meetId}`: the public page of a channel or broadcast; blank layout, no sign-in. */
export default function PublicChannelPage() {
  const { t } = useTranslation('channels');
  const { meetId = '' } = useParams();
  usePrefetchBroadcastViewer(meetId);
  const user = useCurrentUser();
  const page = useChannelPage(meetId, { withToken: user !== undefined });
  useFollowAfterSignIn(user !== undefined ? page.data?.channel : undefined);
  const [searchParams] = useSearchParams();
  if (searchParams.get('embed') === '1') {
    // The embeddable player (oEmbed, ADR 011): only the stage, and a way to the full page.
    return (
      <main className="p-2">
        {page.data ? <EmbeddedStage page={page.data} /> : <PageSpinner label={t('loading')} />}
        <a
          href={`/channel/${encodeURIComponent(meetId)}`}
          target="_blank"
          rel="noopener"
          className="mt-1 inline-block text-xs font-semibold text-primary-700 underline dark:text-primary-300"
        >
          {t('embed.open_full')}
        </a>
      </main>
    );
  }
  return (
    <section className="mx-auto w-full max-w-[100rem] px-4 pb-6 sm:px-8 sm:pt-6">
      {page.isPending ? (
        <PageSpinner label={t('loading')} />
      ) : page.isError ? (
        <ChannelMessage
          icon={TvIcon}
          title={t('unavailable_title')}
          text={page.error.message}
          action={
            <Link to="/channel" className="font-semibold text-primary-700 underline dark:text-primary-300">
              {t('browse.all')}
            </Link>
          }
        />
      ) : (
        <ChannelPageView page={page.data} linkBase="/channel" isSignedIn={user !== undefined} />
      )}
    </section>
  );
}

function EmbeddedStage({ page }: { page: ChannelPage }) {
  return <ChannelStage page={page} followed={useFollowedStage(page)} />;
}

/** Back from signing in to follow (`?follow=1`, SignInToFollowLink): follow once, then drop the flag. */
function useFollowAfterSignIn(channel: Channel | null | undefined) {
  const [searchParams, setSearchParams] = useSearchParams();
  const { mutate: follow } = useFollow();
  const wantsFollow = searchParams.get('follow') === '1';
  useEffect(() => {
    if (!wantsFollow || !channel) return;
    setSearchParams(
      (params) => {
        params.delete('follow');
        return params;
      },
      { replace: true },
    );
    if (!channel.is_following && !channel.can_edit) follow({ id: channel.id, follow: true });
  }, [wantsFollow, channel, follow, setSearchParams]);
}
