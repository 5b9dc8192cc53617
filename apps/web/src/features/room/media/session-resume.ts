import { reclaimSession, type JanusSession } from './janus-api';
import { debug } from './media-types';

/**
 * How long after the resume began a connection may take to find its ICE path again by itself. The
 * same network returning (a cut link, a Wi-Fi blip) revives the old candidate pair about half a second
 * after the link, mostly before the claim is answered, and an ICE restart begun just as it came back
 * was seen to break it for five seconds. A new network (another address) needs the restart.
 */
export const ICE_SELF_RECOVERY_MS = 300;
/** Janus answers an ICE restart at once; without its offer by then, the subscriptions start afresh. */
export const RESTART_OFFER_WAIT_MS = 1500;
/** How long a restarted publisher connection is given to come up before its keyframe is asked for anyway. */
const RESTARTED_ICE_WAIT_MS = 5000;

/** What a resume needs of the room's media (RoomMedia). */
export interface ResumableMedia {
  publisherConnection(): RTCPeerConnection | undefined;
  subscriberConnection(): RTCPeerConnection | undefined;
  restartPublisherIce(): Promise<void>;
  /**
   * Has Janus ask our camera for a keyframe: the others' decoders lost the stream during the cut, and
   * the request Janus sent when they asked went nowhere while we were away.
   */
  requestOwnKeyframe(): void;
  restartScreenIce(): Promise<void>;
  /** Resolves whether Janus made the offer of an ICE restart within `waitMs`. */
  restartSubscriberIce(waitMs: number): Promise<boolean>;
  /** Drops the subscriber handle and its feeds for a new one (Janus holds the old one up). */
  subscribeAfresh(): void;
  /** Asks Janus who publishes now: feeds that came while we were away are subscribed. */
  resync(): void;
}

const isIceUp = (pc: RTCPeerConnection) => pc.iceConnectionState === 'connected' || pc.iceConnectionState === 'completed';

/** Resolves whether the connection's ICE is up, now or within `waitMs`. */
export function whenIceBack(pc: RTCPeerConnection | undefined, waitMs: number): Promise<boolean> {
  if (!pc || pc.iceConnectionState === 'failed' || pc.iceConnectionState === 'closed') return Promise.resolve(false);
  if (isIceUp(pc)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (isUp: boolean) => {
      clearTimeout(timer);
      pc.removeEventListener('iceconnectionstatechange', onChange);
      resolve(isUp);
    };
    const onChange = () => {
      if (isIceUp(pc)) settle(true);
      else if (pc.iceConnectionState === 'failed') settle(false);
    };
    const timer = setTimeout(() => settle(isIceUp(pc)), waitMs);
    pc.addEventListener('iceconnectionstatechange', onChange);
  });
}

/**
 * Takes a joined session back after its connection was lost (ADR 032): claimed over a new connection
 * with the grant, then each peer connection whose ICE does not come back by itself restarts it. The
 * others' subscriptions to our feeds, and ours to theirs, carry on: no join, no new connection, no
 * DTLS handshake. Rejects as `reclaimSession` does.
 */
export async function resumeSession(session: JanusSession, grant: string, media: ResumableMedia, signal: AbortSignal) {
  const selfRecoveryEndsAt = Date.now() + ICE_SELF_RECOVERY_MS;
  await reclaimSession(session, { grant }, signal);
  debug('janus session claimed back');
  // The claim mostly takes longer than the self-recovery: a connection not back by then restarts at once.
  const selfRecoveryLeft = () => Math.max(0, selfRecoveryEndsAt - Date.now());
  const publisher = async () => {
    if (!(await whenIceBack(media.publisherConnection(), selfRecoveryLeft()))) {
      debug('publisher ice not back by itself: restarting it');
      await media.restartPublisherIce();
      await whenIceBack(media.publisherConnection(), RESTARTED_ICE_WAIT_MS);
    }
    media.requestOwnKeyframe();
  };
  const subscriber = async () => {
    const isBack =
      (await whenIceBack(media.subscriberConnection(), selfRecoveryLeft())) ||
      (await media.restartSubscriberIce(RESTART_OFFER_WAIT_MS));
    if (!isBack) {
      debug('subscriber restart unanswered: subscribing afresh');
      media.subscribeAfresh();
    }
    media.resync();
  };
  await Promise.all([publisher(), subscriber(), media.restartScreenIce()]);
}
