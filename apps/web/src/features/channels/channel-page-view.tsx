import type { Broadcast, ChannelPage } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { BroadcastList } from './broadcast-list';
import { ChannelHero, FollowButton, SignInToFollowLink } from './channel-hero';
import { ChannelStage, useFollowedStage } from './channel-stage';
import { NextBroadcast } from './next-broadcast';
import { NotifyMe } from './notify-me';
import { ShareLinks } from './share-links';
import { ViewerChat } from '../viewer-chat';
import { WatchStage } from './watch-stage';

/** A channel or a broadcast, the same in the app (`/channels/…`) and on the public pages (`/channel/…`). */
export function ChannelPageView({
  page,
  linkBase,
  isSignedIn,
}: {
  page: ChannelPage;
  linkBase: string;
  isSignedIn: boolean;
}) {
  const { t } = useTranslation('channels');
  const navigate = useNavigate();
  const channel = page.channel;
  const publicPath = `/channel/${page.broadcast?.url_slug ?? channel?.slug ?? ''}`;
  const chatMeetId = page.broadcast?.url_slug ?? channel?.live?.url_slug;
  const followed = useFollowedStage(page);
  const { focus, viewer } = followed;
  // Something plays: the player comes first, the channel's banner after it (ADR 037).
  const watch = focus && viewer && followed.showsScreen ? { ...followed, focus, viewer } : undefined;
  // The next scheduled broadcast, unless the stage shows it already (with its countdown).
  const next = channel?.upcoming[0];
  const nextShown = next && next.id !== focus?.id ? next : undefined;
  const notifyMe = (broadcast: Broadcast) =>
    channel?.can_edit ? undefined : <NotifyMe broadcast={broadcast} isSignedIn={isSignedIn} returnTo={publicPath} />;
  const nextCard = nextShown && (
    <NextBroadcast broadcast={nextShown} linkBase={linkBase} action={notifyMe(nextShown)} />
  );
  return (
    <div className="space-y-6">
      {watch && <WatchStage page={page} followed={watch} chatMeetId={chatMeetId} />}
      {watch && nextCard}
      {channel && (
        <ChannelHero
          channel={channel}
          actions={
            channel.can_edit ? (
              <Button variant="secondary" onClick={() => void navigate(`/edit-channel/${channel.id}`)}>
                {t('actions.edit')}
              </Button>
            ) : isSignedIn ? (
              <FollowButton channel={channel} />
            ) : (
              <SignInToFollowLink returnTo={publicPath} />
            )
          }
        />
      )}
      {!watch && (
        <ChannelStage
          page={page}
          followed={followed}
          upcomingAction={focus && page.channel && followed.state === 'upcoming' ? notifyMe(focus) : undefined}
        />
      )}
      {!watch && nextCard}
      {!watch && chatMeetId && <ViewerChat key={chatMeetId} meetId={chatMeetId} className="max-h-[32rem]" />}
      <Panel title={t('share.title')}>
        <ShareLinks path={publicPath} title={page.broadcast?.name ?? channel?.name ?? ''} />
      </Panel>
      {channel && (
        <div className="grid gap-6 lg:grid-cols-2">
          <BroadcastList
            title={t('lists.upcoming')}
            broadcasts={channel.upcoming}
            empty={t('lists.no_upcoming')}
            linkBase={linkBase}
          />
          <BroadcastList
            title={t('lists.past')}
            broadcasts={channel.past}
            empty={t('lists.no_past')}
            linkBase={linkBase}
          />
        </div>
      )}
    </div>
  );
}
