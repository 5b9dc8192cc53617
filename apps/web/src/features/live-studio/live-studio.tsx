import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { EndedView } from './ended-view';
import { GoLiveForm } from './go-live-form';
import { isBroadcastActive, useLiveBroadcast } from './live-api';
import { LiveView } from './live-view';
import type { StudioRoom } from './stage-list';

/**
 * The whole studio for one meeting, wherever it is shown (the room's Live panel, My Channel's
 * dialog): the Go live form before, the running broadcast's controls during, the summary after.
 */
export function LiveStudio({
  meetId,
  meetingTitle,
  canStart,
  room,
}: {
  meetId: string;
  meetingTitle: string;
  /** The meeting's host or a co-host: may start a broadcast when none runs. */
  canStart: boolean;
  /** Open in the meeting's room (not My Channel's dialog). */
  room?: StudioRoom;
}) {
  const { t } = useTranslation('streaming');
  const query = useLiveBroadcast(meetId, { grant: room?.grant });
  // The ended broadcast the host has read and put aside to set up a new one.
  const [setAsideId, setSetAsideId] = useState<number>();
  const broadcast = query.data;

  if (query.isPending) return <Spinner label={t('live.loading')} />;
  if (query.isError && broadcast === undefined) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {query.error.message}
      </p>
    );
  }
  if (broadcast && isBroadcastActive(broadcast))
    return <LiveView broadcast={broadcast} meetingTitle={meetingTitle} room={room} />;
  const mayStart = canStart || broadcast?.can_manage === true;
  if (broadcast && broadcast.id !== setAsideId) {
    return (
      <EndedView broadcast={broadcast} onNewBroadcast={mayStart ? () => setSetAsideId(broadcast.id) : undefined} />
    );
  }
  if (!mayStart) return <p className="text-sm text-slate-600 dark:text-slate-400">{t('live.none')}</p>;
  return <GoLiveForm meetId={meetId} meetingTitle={meetingTitle} />;
}
