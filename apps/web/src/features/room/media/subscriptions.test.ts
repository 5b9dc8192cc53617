import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachRoutedVideoRoom, type JanusSession, type PluginHandle } from './janus-api';
import { Subscriptions } from './subscriptions';

// janus.js only loads in a browser; these tests never open a real session.
vi.mock('janus-gateway', () => ({ default: {} }));

/**
 * Which feeds the subscriber hands to the watchdog, against a Janus handle whose messages the test
 * plays (janus.js's session and handle are the stand-ins; Subscriptions is real).
 */
function setup() {
  const sent: Record<string, unknown>[] = [];
  let onmessage: ((message: Record<string, unknown>, jsep?: unknown) => void) | undefined;
  let onremotetrack: ((track: MediaStreamTrack, mid: string, on: boolean) => void) | undefined;
  const handle = {
    getId: () => 42,
    send: ({ message }: { message: Record<string, unknown> }) => sent.push(message),
    createAnswer: ({ success }: { success: (jsep: unknown) => void }) => success({ type: 'answer', sdp: '' }),
  } as unknown as PluginHandle;
  const session = {
    attach: (options: {
      success: (handle: PluginHandle) => void;
      onmessage: typeof onmessage;
      onremotetrack: typeof onremotetrack;
    }) => {
      onmessage = options.onmessage;
      onremotetrack = options.onremotetrack;
      options.success(handle);
    },
  } as unknown as JanusSession;
  const subscriptions = new Subscriptions({
    session,
    ownerOf: (feedId) => (feedId === 7 ? { participantId: 'gus', kind: 'camera' } : undefined),
    feeds: new Map(),
    onFeedsChanged: () => undefined,
    onIce: () => undefined,
    onFirstPicture: () => undefined,
    onSignallingLost: () => undefined,
  });
  /** Janus offers the subscription with these streams. */
  const offer = (streams: Record<string, unknown>[]) =>
    onmessage?.({ videoroom: 'attached', streams }, { type: 'offer', sdp: '' });
  const watched = () => subscriptions.watched(() => 0);
  /** Janus refuses the last request: one of its feeds is not published (any more). */
  const refuse = (feedId: number) =>
    onmessage?.({ videoroom: 'event', error_code: 428, error: `No such feed (${feedId})` });
  /** A remote track of mid `mid` starts (or stops) carrying media. */
  const track = (mid: string, kind: 'audio' | 'video', on: boolean) =>
    onremotetrack?.({ id: `${kind}-${mid}`, kind, muted: false, addEventListener: () => undefined } as unknown as MediaStreamTrack, mid, on);
  return { subscriptions, session, sent, offer, watched, refuse, track };
}

async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

/** Feed 7's offer was answered once: it is watched from then on, and the next feed is only added. */
async function expectAnsweredOnce({
  subscriptions,
  sent,
  watched,
}: Pick<ReturnType<typeof setup>, 'subscriptions' | 'sent' | 'watched'>) {
  expect(sent.map((m) => m.request)).toEqual(['start']);
  expect(watched()).toEqual([{ feedId: 7, participantId: 'gus', mids: ['1'], startedAt: Date.now() }]);
  subscriptions.subscribe([8]);
  await advance(0);
  expect(sent.map((m) => m.request)).toEqual(['start', 'subscribe']);
}

describe('Subscriptions.watched', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands over a subscription with its video mids once Janus offered it', async () => {
    const { subscriptions, sent, offer, watched } = setup();
    subscriptions.subscribe([7]);
    await advance(0);
    expect(sent.map((m) => m.request)).toEqual(['join']);
    expect(watched()).toEqual([]);
    offer([
      { mid: '0', type: 'audio', feed_id: 7 },
      { mid: '1', type: 'video', feed_id: 7 },
    ]);
    await advance(0);
    expect(sent.map((m) => m.request)).toEqual(['join', 'start']);
    expect(watched()).toEqual([{ feedId: 7, participantId: 'gus', mids: ['1'], startedAt: Date.now() }]);
  });

  it('hands over, without mids, a feed no offer carried within the negotiation timeout', async () => {
    const { subscriptions, offer, watched } = setup();
    subscriptions.subscribe([7]);
    await advance(0);
    const askedAt = Date.now();
    await advance(7000);
    expect(watched()).toEqual([]);
    // Janus renegotiates for something else: the offer does not carry feed 7.
    offer([{ mid: '0', type: 'audio', feed_id: 9 }]);
    await advance(2000);
    expect(watched()).toEqual([{ feedId: 7, participantId: 'gus', mids: [], startedAt: askedAt }]);
  });

  it('asks again from scratch when the watchdog resubscribes a feed Janus never offered', async () => {
    const { subscriptions, sent, offer, watched } = setup();
    subscriptions.subscribe([7]);
    await advance(9000);
    subscriptions.resubscribe(7);
    await advance(0);
    expect(sent.map((m) => m.request)).toEqual(['join', 'unsubscribe']);
    offer([]);
    await advance(0);
    expect(sent.map((m) => m.request)).toEqual(['join', 'unsubscribe', 'start', 'subscribe']);
    expect(watched()).toEqual([]);
    offer([{ mid: '1', type: 'video', feed_id: 7 }]);
    await advance(0);
    expect(watched()).toEqual([{ feedId: 7, participantId: 'gus', mids: ['1'], startedAt: Date.now() }]);
  });

  it('leaves out a feed whose offer carries no video (camera off)', async () => {
    const { subscriptions, offer, watched } = setup();
    subscriptions.subscribe([7]);
    await advance(0);
    offer([{ mid: '0', type: 'audio', feed_id: 7 }]);
    await advance(20_000);
    expect(watched()).toEqual([]);
  });

  it('asks again without a feed that left when Janus refuses the join or a later subscribe for it', async () => {
    const { subscriptions, sent, offer, refuse, watched } = setup();
    subscriptions.subscribe([7, 8]);
    await advance(0);
    refuse(8);
    await advance(0);
    // The handle never joined: it joins again, with the feed that is still there.
    expect(sent.map((m) => [m.request, (m.streams as { feed: number }[]).map((r) => r.feed)])).toEqual([
      ['join', [7, 8]],
      ['join', [7]],
    ]);
    offer([{ mid: '1', type: 'video', feed_id: 7 }]);
    await advance(0);
    expect(watched()).toEqual([{ feedId: 7, participantId: 'gus', mids: ['1'], startedAt: Date.now() }]);
    subscriptions.subscribe([9, 10]);
    await advance(0);
    refuse(10);
    await advance(0);
    expect(sent.slice(3).map((m) => [m.request, (m.streams as { feed: number }[]).map((r) => r.feed)])).toEqual([
      ['subscribe', [9, 10]],
      ['subscribe', [9]],
    ]);
    expect(subscriptions.has(10)).toBe(false);
  });
});

describe('Subscriptions of a join the proxy subscribed (ADR 016)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const requests = (sent: Record<string, unknown>[]) => sent.map((m) => m.request);

  it('sends no join of its own, answers the offer, and goes on from there', async () => {
    const { subscriptions, sent, offer, watched } = setup();
    subscriptions.prepare();
    await advance(0);
    subscriptions.subscribe([7], true);
    await advance(0);
    expect(requests(sent)).toEqual([]);
    offer([{ mid: '1', type: 'video', feed_id: 7 }]);
    await advance(0);
    await expectAnsweredOnce({ subscriptions, sent, watched });
  });

  it('takes an offer that came before the publisher’s `joined` as the answer to that join', async () => {
    const { subscriptions, sent, offer } = setup();
    subscriptions.prepare();
    await advance(0);
    offer([{ mid: '1', type: 'video', feed_id: 7 }]);
    await advance(0);
    subscriptions.subscribe([7], true);
    subscriptions.subscribe([8]);
    // Not held back by a negotiation waiting for an offer that has come already.
    await advance(0);
    expect(requests(sent)).toEqual(['start', 'subscribe']);
  });

  it('joins by itself when Janus refused the proxy’s join before', async () => {
    const { subscriptions, sent, refuse } = setup();
    subscriptions.prepare();
    await advance(0);
    refuse(8);
    subscriptions.subscribe([7, 8], true);
    await advance(0);
    expect(sent.map((m) => [m.request, (m.streams as { feed: number }[]).map((r) => r.feed)])).toEqual([
      ['join', [7, 8]],
    ]);
  });
});

describe('A subscriber handle prepared on the pre-join screen (ADR 016)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const requests = (sent: Record<string, unknown>[]) => sent.map((m) => m.request);

  it('answers an offer that came before the call once allowed, and the call takes it as answered', async () => {
    const { subscriptions, session, sent, offer, watched } = setup();
    let allow = () => undefined as void;
    const routed = attachRoutedVideoRoom(session, new Promise<void>((resolve) => (allow = resolve)));
    offer([{ mid: '1', type: 'video', feed_id: 7 }]);
    await advance(0);
    // Not before the join's answer has brought the STUN/TURN servers.
    expect(requests(sent)).toEqual([]);
    allow();
    await routed.answered();
    expect(requests(sent)).toEqual(['start']);

    subscriptions.adopt(routed);
    subscriptions.subscribe([7], true);
    await advance(0);
    await expectAnsweredOnce({ subscriptions, sent, watched });
  });

  it('leaves the offer to the call when the call takes the handle first', async () => {
    const { subscriptions, session, sent, offer } = setup();
    let allow = () => undefined as void;
    const routed = attachRoutedVideoRoom(session, new Promise<void>((resolve) => (allow = resolve)));
    offer([{ mid: '1', type: 'video', feed_id: 7 }]);
    subscriptions.adopt(routed);
    subscriptions.subscribe([7], true);
    await advance(0);
    allow();
    await advance(0);
    expect(requests(sent)).toEqual(['start']);
  });
});

/** Just what updateFeedTracks needs of a MediaStream (node has none). */
class FakeStream {
  private readonly tracks: MediaStreamTrack[];
  constructor(tracks: MediaStreamTrack[] = []) {
    this.tracks = [...tracks];
  }
  getTracks = () => [...this.tracks];
  getTrackById = (id: string) => this.tracks.find((t) => t.id === id);
  addTrack = (track: MediaStreamTrack) => void this.tracks.push(track);
  removeTrack = (track: MediaStreamTrack) => void this.tracks.splice(this.tracks.indexOf(track), 1);
}

describe('a feed whose sound comes back', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('MediaStream', FakeStream);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks for a keyframe of its picture, but not when its sound first starts', async () => {
    const { subscriptions, sent, offer, track } = setup();
    subscriptions.subscribe([7]);
    await advance(0);
    offer([
      { mid: '0', type: 'audio', feed_id: 7 },
      { mid: '1', type: 'video', feed_id: 7 },
    ]);
    await advance(0);
    track('0', 'audio', true);
    track('1', 'video', true);
    expect(sent.map((m) => m.request)).toEqual(['join', 'start']);
    // Its publisher was cut off, then came back.
    track('0', 'audio', false);
    track('1', 'video', false);
    track('0', 'audio', true);
    expect(sent.slice(2)).toEqual([
      { request: 'configure', streams: [{ mid: '1', substream: 1 }] },
      { request: 'configure', streams: [{ mid: '1', substream: 2 }] },
    ]);
  });
});
