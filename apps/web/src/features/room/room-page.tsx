import { GetRoomOutputSchema } from '@meetcast/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { Spinner } from '../../components/spinner';
import { ApiError, apiPost } from '../../lib/api';
import { InCall } from './in-call';
import { PreJoin, type Joined } from './pre-join';
import { RoomNotice } from './room-notice';
import { useLocalMedia } from './use-local-media';

/** /room/{meetId}: public; the pre-join screen, then the call; clear pages for unknown or ended meetings. */
export default function RoomPage() {
  const { t } = useTranslation('room');
  const { meetId = '' } = useParams();
  const [search] = useSearchParams();
  const [joined, setJoined] = useState<Joined>();
  const [hasLeft, setHasLeft] = useState(false);
  const local = useLocalMedia();
  const room = useQuery({
    queryKey: ['room', meetId],
    queryFn: () => apiPost('get-room.php', { meetId }, { schema: GetRoomOutputSchema }),
    retry: (count, error) => !(error instanceof ApiError && error.httpStatus < 500) && count < 2,
    staleTime: 30_000,
  });
  const onLeave = useCallback(() => {
    setJoined(undefined);
    setHasLeft(true);
  }, []);

  if (joined) return <InCall joined={joined} local={local} onLeave={onLeave} />;
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
      const kind = status === 410 ? 'ended' : 'unavailable';
      return <RoomNotice kind={kind} message={room.error.message} />;
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
        local={local}
        initialPassword={search.get('password') ?? undefined}
        onJoined={setJoined}
      />
    );
  }
}
