import { DEFAULT_BRAND_KIT, streamingCalls, type BroadcastOverlay } from '@meetcast/contracts';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useParams } from 'react-router';
import { api } from '../../lib/api';
import { CommentCard } from '../streaming';
import { useBroadcastEvents } from '../../lib/broadcast-events';
import { sceneOnAir } from './broadcast-scene';
import { peopleOnStage } from './on-stage';
import { BroadcastSceneScreen } from './broadcast-scene-screen';
import { BroadcastStage } from './broadcast-stage';
import { buildTiles } from './stage';
import type { LocalMedia } from './use-local-media';
import { useRoomMedia } from './use-room-media';
import { useRoomSocket } from './use-room-socket';
import { expectedCameras } from './room-state';

/** The composer sends nothing: it only watches and listens. */
const NO_LOCAL_MEDIA: LocalMedia = {
  audioTrack: undefined,
  videoTrack: undefined,
  isAudioOn: false,
  isVideoOn: false,
  devices: { audioInputs: [], videoInputs: [], audioOutputs: [] },
  choice: {},
  canChooseSpeaker: false,
  error: undefined,
  background: {
    isSupported: false,
    choice: { kind: 'none' },
    choose: () => undefined,
    image: undefined,
    addImage: () => undefined,
  },
  noise: { isSupported: false, isOn: false, setOn: () => undefined },
  setAudioOn: () => undefined,
  setVideoOn: () => Promise.resolve(undefined),
  chooseDevice: () => Promise.resolve(undefined),
  stopAll: () => undefined,
};

const NO_OVERLAY: BroadcastOverlay = {
  logo_url: null,
  banner: null,
  ticker: null,
  comment: null,
  layout: 'auto',
  scene: 'live',
  scene_message: null,
  scene_countdown_to: null,
  brand: DEFAULT_BRAND_KIT,
};
/**
 * How long the picture waits for the first camera frame after joining before it shows the people
 * anyway (ADR 042): a camera announced but never received must not hold the stream on a card.
 */
const PICTURE_WAIT_MS = 15_000;
/** Only while the socket is down: the overlay's changes (and the layout's) are pushed otherwise (ADR 022). */
const OVERLAY_POLL_MS = 2000;

/**
 * The host's logo, lower-third banner, ticker, layout and scene, followed while live. Asked with the composer's grant:
 * a private meeting's broadcast is answered only to those admitted to its room.
 */
function useOverlay(meetId: string, grant: string) {
  const [shown, setShown] = useState<{ overlay: BroadcastOverlay; onStage: string[] | null }>({
    overlay: NO_OVERLAY,
    onStage: null,
  });
  const [changes, setChanges] = useState(0);
  /** Bumped by every push that carried the overlay: a read started before it answers older news. */
  const pushed = useRef(0);
  const isPushed = useBroadcastEvents(
    meetId,
    (event) => {
      // The room's pushes carry the overlay (ADR 039): drawn at once, without asking again.
      if (event?.overlay) {
        pushed.current += 1;
        setShown({ overlay: event.overlay, onStage: event.on_stage ?? null });
      } else setChanges((count) => count + 1);
    },
    { grant, withToken: false },
  );
  useEffect(() => {
    let isActive = true;
    const load = () => {
      const pushesBefore = pushed.current;
      return api
        .call(streamingCalls.getBroadcast, { meetId, grant }, { withToken: false })
        .then(
          (body) =>
            isActive &&
            pushed.current === pushesBefore &&
            setShown({ overlay: body.data.data?.overlay ?? NO_OVERLAY, onStage: body.data.data?.on_stage ?? null }),
        )
        .catch(() => undefined);
    };
    void load();
    const timer = isPushed ? undefined : setInterval(() => void load(), OVERLAY_POLL_MS);
    return () => {
      isActive = false;
      clearInterval(timer);
    };
  }, [meetId, grant, isPushed, changes]);
  return shown;
}

/**
 * Whether a camera's first frame has played on the page (a `<video>` below `root` reported a picture
 * size), and whether PICTURE_WAIT_MS have passed since joining. Media events do not bubble: they
 * are heard while they go down to their element.
 */
function usePictureArrival(root: RefObject<HTMLElement | null>, isInRoom: boolean) {
  const [hasFramePlayed, setHasFramePlayed] = useState(false);
  const [hasWaitedLongEnough, setHasWaitedLongEnough] = useState(false);
  useEffect(() => {
    const element = root.current;
    if (!element || hasFramePlayed) return undefined;
    const onMedia = (event: Event) => {
      if (event.target instanceof HTMLVideoElement && event.target.videoWidth > 0) setHasFramePlayed(true);
    };
    element.addEventListener('playing', onMedia, true);
    element.addEventListener('resize', onMedia, true);
    return () => {
      element.removeEventListener('playing', onMedia, true);
      element.removeEventListener('resize', onMedia, true);
    };
  }, [root, hasFramePlayed]);
  useEffect(() => {
    if (!isInRoom) return undefined;
    const timer = setTimeout(() => setHasWaitedLongEnough(true), PICTURE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [isInRoom]);
  return { hasFramePlayed, hasWaitedLongEnough };
}

/**
 * The meeting as the audience sees it, drawn at the frame's size (1280×720 or 1920×1080) for the
 * broadcast composer (a Chromium on a virtual screen, opened by the server with a composer grant in
 * the address's fragment): the people on stage (ADR 045) in the layout the host chose (ADR 039),
 * names on tiles, the overlay in a band of its own, or the host's holding screen over all of it
 * (ADR 042). Its sound (everyone on stage, whatever the scene) plays into the composer's sound card.
 */
export default function BroadcastLayoutPage() {
  const { meetId = '' } = useParams();
  const grant = useMemo(() => new URLSearchParams(window.location.hash.slice(1)).get('grant') ?? '', []);
  const { state } = useRoomSocket(grant || undefined, false);
  const isInRoom = state.phase === 'in-room';
  const cameraOn = useMemo(() => expectedCameras(state.participants), [state.participants]);
  // The composer's watchdog repairs what it receives too; the audience is not shown its labels.
  const media = useRoomMedia({
    cameraOn,
    access: state.media,
    isInRoom,
    grant,
    participantId: state.self?.id ?? '',
    local: NO_LOCAL_MEDIA,
  });
  const { overlay, onStage } = useOverlay(meetId, grant);
  const selfId = state.self?.id ?? '';
  // The composer itself is in the room to watch; it is nobody on the picture. Backstage people get
  // no tile: neither drawn nor played, so their sound never reaches the encode (ADR 045). Until the
  // broadcast's stage is known, nobody is shown rather than someone who should not be.
  const tiles = useMemo(
    () =>
      buildTiles(
        peopleOnStage(Object.values(state.participants), selfId, onStage),
        selfId,
        media.feeds,
        undefined,
        undefined,
      ),
    [state.participants, selfId, media.feeds, onStage],
  );
  const latestSpeaker = Object.entries(media.talking)
    .filter(([id]) => onStage?.includes(id))
    .sort((a, b) => b[1] - a[1])[0]?.[0];
  const root = useRef<HTMLDivElement>(null);
  const picture = usePictureArrival(root, isInRoom);
  const scene = sceneOnAir(overlay, {
    ...picture,
    peopleCount: tiles.length,
    camerasOn: cameraOn.filter((id) => id !== selfId && onStage?.includes(id)).length,
  });

  return (
    <div
      ref={root}
      data-broadcast-layout
      data-ready={isInRoom ? 'true' : 'false'}
      className="dark fixed inset-0 z-[1000] cursor-none overflow-hidden bg-slate-950 text-white"
    >
      <BroadcastStage
        tiles={tiles}
        layout={overlay.layout}
        overlay={overlay}
        featuredKey={latestSpeaker && `${latestSpeaker}:camera`}
      />
      {overlay.comment && <CommentCard card={overlay.comment} />}
      <BroadcastSceneScreen scene={scene} meetingTitle={state.meeting?.name ?? ''} />
    </div>
  );
}
