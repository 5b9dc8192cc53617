import type { MediaAccess } from '@meetcast/contracts';
import { Handoff } from '../../../lib/handoff';
import { takePreparedJoin } from './prepared-join';
import { RoomMedia } from './room-media';

/** Media the click started that no call took over (it never rendered) is closed after this long. */
const UNCLAIMED_MS = 15_000;

const early = new Handoff<string, RoomMedia>((media) => media.close(), UNCLAIMED_MS);
const keyOf = (grant: string, room: number) => `${grant} ${room}`;

/**
 * Starts the call's media in the click's own task, as soon as the join is answered, with what the
 * pre-join screen prepared: the call's page takes a render or two to appear, and the join goes on
 * meanwhile instead of after (issue 14: the click should only join). The call shows it once it renders.
 */
export function startEarlyMedia(
  joined: { meetId: string; grant: string; participantId: string; media: MediaAccess },
  local: { audio: () => MediaStreamTrack | undefined; video: () => MediaStreamTrack | undefined },
) {
  const media = new RoomMedia(
    {
      grant: joined.grant,
      room: joined.media.room,
      iceServers: joined.media.ice_servers,
      participantId: joined.participantId,
      prepared: takePreparedJoin(joined.meetId),
    },
    local,
  );
  media.start().catch(() => media.retry());
  early.hold(keyOf(joined.grant, joined.media.room), media);
}

/** The media started for this grant and room, if any, now owned by the caller (once). */
export function takeEarlyMedia(grant: string, room: number): RoomMedia | undefined {
  return early.take(keyOf(grant, room));
}
