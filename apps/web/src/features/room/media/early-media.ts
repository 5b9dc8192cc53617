import type { MediaAccess } from '@meetcast/contracts';
import { Handoff } from '../../../lib/handoff';
import { atMost } from './media-types';
import { takePreparedJoin } from './prepared-join';
import { RoomMedia } from './room-media';

/** Media the click started that no call took over (it never rendered) is closed after this long. */
const UNCLAIMED_MS = 15_000;

/** The room connection waits at most this long for the early media's first picture. */
const MEDIA_FIRST_MS = 1000;

const early = new Handoff<string, RoomMedia>((media) => media.close(), UNCLAIMED_MS);
/** The grant whose media the click started, and when its first picture arrived. */
let lastStarted: { grant: string; firstPicture: Promise<void> } | undefined;
const keyOf = (grant: string, room: number) => `${grant} ${room}`;

/**
 * Starts the call's media in the click's own task, as soon as the join is answered, with what the
 * pre-join screen prepared: the call's page takes a render or two to appear, and the join goes on
 * meanwhile instead of after (the click should only join: docs/benchmarks/room-join.md). The call shows it once it renders.
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
  lastStarted = { grant: joined.grant, firstPicture: atMost(media.firstPicture, MEDIA_FIRST_MS) };
}

/**
 * When the room connection of this grant may open: once the media the click started has its first
 * picture of the others (at most a second), at once for any other grant. Its handshake, the server's
 * part of the room join and the call's render of `room.state` slowed the picture the person waits
 * for when they ran beside it (ADR 016); presence and chat come a moment later instead.
 */
export function roomConnectionMayOpen(grant: string): Promise<void> {
  return lastStarted?.grant === grant ? lastStarted.firstPicture : Promise.resolve();
}

/** The media started for this grant and room, if any, now owned by the caller (once). */
export function takeEarlyMedia(grant: string, room: number): RoomMedia | undefined {
  return early.take(keyOf(grant, room));
}
