import type { LiveBroadcast } from '@meetcast/contracts';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDuration } from '../../lib/format-duration';
import { AddDestinationForm } from './add-destination-form';
import { BroadcastPreview } from './broadcast-preview';
import { DestinationStatus } from './destination-status';
import { useAddDestination, useRemoveDestination, useStopBroadcast } from './live-api';
import { LayoutPicker } from './layout-picker';
import { OverlayForm } from './overlay-form';
import { OverlayImagePicker } from './overlay-image-picker';
import { RehearsalBadge, RehearsalGoLive } from './rehearsal-go-live';
import { SceneForm } from './scene-form';
import { StageList, type StudioRoom } from './stage-list';
import { StateBadge } from './state-badge';
import { StudioChat } from './studio-chat';

const LINK = 'text-sm font-semibold text-primary-700 underline hover:no-underline dark:text-primary-300';

/** Seconds since the epoch, updated every second while `isTicking`. */
function useNowSeconds(isTicking: boolean) {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    if (!isTicking) return undefined;
    const timer = setInterval(() => setNow(Math.floor(Date.now() / 1000)), 1000);
    return () => clearInterval(timer);
  }, [isTicking]);
  return now;
}

export function StudioSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900 dark:text-white">
        {title}
      </h3>
      {children}
    </section>
  );
}

export function BroadcastNotice({ notice }: { notice: string | null }) {
  if (!notice) return null;
  return (
    <p
      role="status"
      className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200"
    >
      {notice}
    </p>
  );
}

/** A running broadcast: destinations and their health, adding and removing them, the overlay, Stop. */
export function LiveView({
  broadcast,
  meetingTitle,
  room,
}: {
  broadcast: LiveBroadcast;
  meetingTitle: string;
  /** Open in the meeting's room: who is on stage is chosen here (ADR 045). */
  room?: StudioRoom;
}) {
  const { t } = useTranslation('streaming');
  const meetId = broadcast.url_slug;
  const stop = useStopBroadcast(meetId);
  const remove = useRemoveDestination(meetId);
  // Retry adds the failed destination again: the server keeps its title and settings (ADR 020).
  const retry = useAddDestination(meetId);
  const [isConfirmingStop, setIsConfirmingStop] = useState(false);
  const [removing, setRemoving] = useState<LiveBroadcast['destinations'][number]>();
  const now = useNowSeconds(broadcast.state === 'live');
  const canManage = broadcast.can_manage;
  const isRunning = broadcast.state === 'starting' || broadcast.state === 'live';
  // A rehearsal (ADR 047): the preview and "Go live"; its destinations are chosen there.
  const isRehearsal = broadcast.rehearsal === true && isRunning;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-2">
        {/* A rehearsal's encode runs ("live") but nobody outside sees it: never a LIVE mark then. */}
        {isRehearsal ? <RehearsalBadge /> : <StateBadge state={broadcast.state} />}
        {broadcast.state === 'live' && !isRehearsal && broadcast.started_at !== null && (
          <span className="text-sm text-slate-700 tabular-nums dark:text-slate-300">
            {t('live.on_air_for', { time: formatDuration(now - broadcast.started_at) })}
          </span>
        )}
      </div>
      <BroadcastNotice notice={broadcast.notice} />

      {canManage && isRunning && (
        <StudioSection title={t('preview.title')}>
          <BroadcastPreview meetId={meetId} />
        </StudioSection>
      )}

      {canManage && isRehearsal && (
        <StudioSection title={t('rehearsal.title')}>
          <RehearsalGoLive broadcast={broadcast} meetingTitle={meetingTitle} />
        </StudioSection>
      )}

      {!isRehearsal && (
        <StudioSection title={t('live.destinations')}>
          {broadcast.destinations.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('live.recording_only')}</p>
          ) : (
            <ul aria-live="polite" className="divide-y divide-slate-200 dark:divide-slate-700">
              {broadcast.destinations.map((destination) => (
                <DestinationStatus
                  key={destination.connection_id}
                  destination={destination}
                  onRemove={canManage && destination.state !== 'ended' ? () => setRemoving(destination) : undefined}
                  onRetry={
                    canManage && destination.state === 'failed'
                      ? () => retry.mutate({ connection_id: destination.connection_id })
                      : undefined
                  }
                />
              ))}
            </ul>
          )}
          {canManage && <AddDestinationForm broadcast={broadcast} meetingTitle={meetingTitle} />}
        </StudioSection>
      )}

      {canManage && room && (
        <StudioSection title={t('stage.title')}>
          <StageList broadcast={broadcast} room={room} />
        </StudioSection>
      )}

      {canManage && (
        <StudioSection title={t('chat.title')}>
          <StudioChat broadcast={broadcast} />
        </StudioSection>
      )}

      {canManage && (
        <StudioSection title={t('scene.title')}>
          <SceneForm broadcast={broadcast} />
        </StudioSection>
      )}

      {canManage && (
        <StudioSection title={t('layout.title')}>
          <LayoutPicker broadcast={broadcast} />
        </StudioSection>
      )}

      {canManage && (
        <StudioSection title={t('overlay_image.title')}>
          <OverlayImagePicker broadcast={broadcast} />
        </StudioSection>
      )}

      {canManage && (
        <StudioSection title={t('overlay.title')}>
          <OverlayForm broadcast={broadcast} />
        </StudioSection>
      )}

      <p>
        <a href={broadcast.watch_url} target="_blank" rel="noopener" className={LINK}>
          {t('live.watch_page')}
        </a>
      </p>

      {canManage && (
        <Button variant="danger" className="w-full" onClick={() => setIsConfirmingStop(true)}>
          {t('live.stop')}
        </Button>
      )}
      <ConfirmDialog
        open={isConfirmingStop}
        title={t('stop_dialog.title')}
        text={t('stop_dialog.text')}
        confirmLabel={t('live.stop')}
        isBusy={stop.isPending}
        onCancel={() => setIsConfirmingStop(false)}
        onConfirm={() => stop.mutate(undefined, { onSettled: () => setIsConfirmingStop(false) })}
      />
      <ConfirmDialog
        open={removing !== undefined}
        title={t('remove_destination_dialog.title')}
        text={t('remove_destination_dialog.text', { name: removing?.name ?? '' })}
        confirmLabel={t('live.remove_destination')}
        isBusy={remove.isPending}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => removing && remove.mutate(removing.connection_id, { onSettled: () => setRemoving(undefined) })}
      />
    </div>
  );
}
