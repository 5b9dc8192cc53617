import { RadioIcon, TvIcon } from 'lucide-react';
import { meetingRoomPath } from '@meetcast/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { PageSpinner } from '../../components/spinner';
import { GoLiveAction } from '../live-studio';
import { RecordingsSection } from '../streaming';
import { ChannelMessage } from './channel-message';
import { BroadcastList } from './broadcast-list';
import { PlannedGoLive } from './broadcast-plan';
import { ChannelHero } from './channel-hero';
import { ScheduleBroadcastDialog } from './schedule-broadcast-dialog';
import { ShareLinks } from './share-links';
import { useMyChannel } from './use-channels';

export default function MyChannelPage() {
  const { t } = useTranslation('channels');
  const navigate = useNavigate();
  const mine = useMyChannel();
  const [isScheduling, setIsScheduling] = useState(false);

  if (mine.isPending) return <PageSpinner label={t('loading')} />;
  if (mine.isError) return <ChannelMessage title={t('load_failed')} text={mine.error.message} icon={TvIcon} />;
  const channel = mine.data;
  if (!channel) {
    return (
      <ChannelMessage
        icon={TvIcon}
        title={t('mine.none_title')}
        text={t('mine.none')}
        action={<Button onClick={() => void navigate('/create-channel')}>{t('mine.create')}</Button>}
      />
    );
  }

  return (
    <section className="space-y-6">
      <ChannelHero
        channel={channel}
        actions={
          <>
            <Button variant="secondary" onClick={() => void navigate(`/edit-channel/${channel.id}`)}>
              {t('actions.edit')}
            </Button>
            <Button onClick={() => setIsScheduling(true)}>{t('actions.schedule')}</Button>
          </>
        }
      />
      {channel.is_hidden && (
        <p
          role="status"
          className="rounded-xl bg-amber-50 p-4 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          {t('mine.hidden')}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title={t('mine.go_live_title')} description={t('mine.go_live')}>
          <div className="flex flex-wrap gap-2">
            {channel.live ? (
              <>
                <Button onClick={() => void navigate(meetingRoomPath({ url_slug: channel.live?.url_slug ?? '' }))}>
                  <RadioIcon className="size-4" />
                  {t('mine.open_live')}
                </Button>
                <GoLiveAction meetId={channel.live.url_slug} meetingTitle={channel.live.name} isLive />
              </>
            ) : (
              <Link
                to="/connect-stream"
                className="inline-flex h-10 items-center gap-2 rounded-lg bg-primary-600 px-4 text-sm font-semibold text-white hover:bg-primary-700 dark:bg-primary-500 dark:text-slate-950"
              >
                <RadioIcon className="size-4" />
                {t('mine.streaming_setup')}
              </Link>
            )}
          </div>
        </Panel>
        <Panel title={t('mine.share_title')} description={t('mine.share')}>
          <ShareLinks path={`/channel/${channel.slug}`} title={channel.name} />
        </Panel>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <BroadcastList
          title={t('lists.upcoming')}
          broadcasts={channel.upcoming}
          empty={t('lists.no_upcoming')}
          linkBase="/channels"
          renderActions={(broadcast) =>
            broadcast.public_state === 'upcoming' && (
              <GoLiveAction meetId={broadcast.url_slug} meetingTitle={broadcast.name} />
            )
          }
          renderDetails={(broadcast) =>
            broadcast.public_state === 'upcoming' && (
              <PlannedGoLive meetId={broadcast.url_slug} meetingTitle={broadcast.name} />
            )
          }
        />
        <BroadcastList
          title={t('lists.past')}
          broadcasts={channel.past}
          empty={t('lists.no_past')}
          linkBase="/channels"
        />
      </div>
      <RecordingsSection />
      <ScheduleBroadcastDialog channelId={channel.id} open={isScheduling} onOpenChange={setIsScheduling} />
    </section>
  );
}
