import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reclaimSession, type JanusSession } from './janus-api';
import { ICE_SELF_RECOVERY_MS, RESTART_OFFER_WAIT_MS, resumeSession, type ResumableMedia } from './session-resume';

vi.mock('./janus-api', () => ({ reclaimSession: vi.fn(async () => undefined) }));

/** A peer connection as far as a resume reads it: its ICE state and the event that says it changed. */
class FakeConnection extends EventTarget {
  constructor(public iceConnectionState: RTCIceConnectionState) {
    super();
  }
  become(state: RTCIceConnectionState) {
    this.iceConnectionState = state;
    this.dispatchEvent(new Event('iceconnectionstatechange'));
  }
}

function media(publisher: FakeConnection, subscriber: FakeConnection, isOfferMade = true) {
  const steps: string[] = [];
  const resumable: ResumableMedia = {
    publisherConnection: () => publisher as unknown as RTCPeerConnection,
    subscriberConnection: () => subscriber as unknown as RTCPeerConnection,
    restartPublisherIce: async () => void steps.push('publisher restart'),
    requestOwnKeyframe: () => void steps.push('keyframe'),
    restartScreenIce: async () => undefined,
    restartSubscriberIce: async (waitMs) => {
      steps.push(`subscriber restart (${waitMs} ms)`);
      return isOfferMade;
    },
    subscribeAfresh: () => void steps.push('subscribe afresh'),
    resync: () => void steps.push('resync'),
  };
  return { resumable, steps };
}

const session = {} as JanusSession;

describe('resumeSession', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('claims the session with the grant and leaves connections whose ICE came back by themselves', async () => {
    const publisher = new FakeConnection('disconnected');
    const subscriber = new FakeConnection('connected');
    const { resumable, steps } = media(publisher, subscriber);
    const resumed = resumeSession(session, 'the-grant', resumable, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(ICE_SELF_RECOVERY_MS / 2);
    publisher.become('connected');
    await resumed;
    expect(vi.mocked(reclaimSession)).toHaveBeenCalledWith(session, { grant: 'the-grant' }, expect.anything());
    expect(steps).toEqual(['resync', 'keyframe']);
  });

  it('restarts ICE where it is not back in time, at once where it failed', async () => {
    const publisher = new FakeConnection('disconnected');
    const subscriber = new FakeConnection('failed');
    const { resumable, steps } = media(publisher, subscriber);
    const resumed = resumeSession(session, 'the-grant', resumable, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(steps).toEqual([`subscriber restart (${RESTART_OFFER_WAIT_MS} ms)`, 'resync']);
    await vi.advanceTimersByTimeAsync(ICE_SELF_RECOVERY_MS);
    expect(steps).toContain('publisher restart');
    expect(steps).not.toContain('keyframe');
    // The keyframe is asked for once the restarted connection is up.
    publisher.become('connected');
    await resumed;
    expect(steps.at(-1)).toBe('keyframe');
  });

  it('subscribes afresh when Janus makes no offer for the restart', async () => {
    const { resumable, steps } = media(new FakeConnection('connected'), new FakeConnection('failed'), false);
    await resumeSession(session, 'the-grant', resumable, new AbortController().signal);
    expect(steps).toEqual(['keyframe', `subscriber restart (${RESTART_OFFER_WAIT_MS} ms)`, 'subscribe afresh', 'resync']);
  });
});
