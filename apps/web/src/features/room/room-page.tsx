import { roomCalls, type RoomMeeting } from '@meetcast/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { Spinner } from '../../components/spinner';
import { ApiError, api } from '../../lib/api';
import { InCall } from './in-call';
import { forgetJoined, recallJoined, recallName, rememberJoined } from './joined-session';
import { PreJoin, type Joined } from './pre-join';
import { RoomNotice } from './room-notice';
import { useLocalMedia } from './use-local-media';

const WAITING_POLL_MS = 3000;

/** An ended meeting the server still shows is an instant one that its host can start again. */
function isWaitingForHost(room: { meeting: RoomMeeting; is_host: boolean } | undefined) {
  return room?.meeting.state === 'ended' && !room.is_host;
}

/** /room/{meetId}: public; the pre-join screen, then the call; clear pages for unknown or ended meetings. */
export default function RoomPage() {
  const { t } = useTranslation('room');
  const { meetId = '' } = useParams();
  const [search] = useSearchParams();
  // A reload during the call goes back in with the grant this tab kept.
  const [joined, setJoined] = useState<Joined | undefined>(() => recallJoined(meetId));
  const [hasLeft, setHasLeft] = useState(false);
  const [rejoinNotice, setRejoinNotice] = useState<string>();
  const local = useLocalMedia();
  const room = useQuery({
    queryKey: ['room', meetId],
    queryFn: () => api.call(roomCalls.getRoom, { meetId }),
    retry: (count, error) => !(error instanceof ApiError && error.httpStatus < 500) && count < 2,
    staleTime: 30_000,
    // An instant meeting whose host is away: ask again until they start it, then the guest goes in.
    refetchInterval: (query) => (isWaitingForHost(query.state.data?.data) ? WAITING_POLL_MS : false),
  });
  const refetchRoom = room.refetch;
  const onLeave = useCallback(() => {
    forgetJoined(meetId);
    setJoined(undefined);
    setHasLeft(true);
  }, [meetId]);
  const onJoined = useCallback(
    (next: Joined) => {
      rememberJoined(meetId, next);
      setRejoinNotice(undefined);
      setJoined(next);
    },
    [meetId],
  );
  // The kept grant no longer opens the room (it expired, or its session is over): join again.
  const onGrantRefused = useCallback(
    (hasExpired: boolean) => {
      forgetJoined(meetId);
      setJoined(undefined);
      setRejoinNotice(hasExpired ? t('prejoin.rejoin_expired') : undefined);
      void refetchRoom();
    },
    [meetId, t, refetchRoom],
  );

  if (joined) return <InCall joined={joined} local={local} onLeave={onLeave} onGrantRefused={onGrantRefused} />;
  // The layout leaves the landmark to the room: the call has its own <main>, every other state this one.
  return <main id="main">{beforeTheCall()}</main>;

  function beforeTheCall() {
    if (room.isPending) {
      return (
        <div className="flex justify-center p-12" role="status" aria-label={t('call.loading')}>
          <Spinner className="size-8" />
        </div>
      );
    }
    if (room.isError) {
      const status = room.error instanceof ApiError ? room.error.httpStatus : 0;
      // The notice's own text says "ended" well; the server's message would only repeat its title.
      if (status === 410) return <RoomNotice kind="ended" />;
      return <RoomNotice kind="unavailable" message={room.error.message} />;
    }
    const { meeting, is_host: isHost } = room.data.data;
    if (hasLeft) {
      return (
        <RoomNotice
          kind="left"
          meetingName={meeting.name}
          onLeave={() => {
            setHasLeft(false);
            void room.refetch();
          }}
        />
      );
    }
    return (
      <PreJoin
        meeting={meeting}
        isHost={isHost}
        isWaitingForHost={isWaitingForHost(room.data.data)}
        onWaitingForHost={() => void room.refetch()}
        local={local}
        initialPassword={search.get('password') ?? undefined}
        initialName={recallName(meetId)}
        notice={rejoinNotice}
        isBackstage={search.get('backstage') === '1'}
        onJoined={onJoined}
      />
    );
  }
}
