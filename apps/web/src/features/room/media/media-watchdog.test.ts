import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MediaWatchdog, type FeedHealth, type RepairStep, type WatchdogHost } from './media-watchdog';

/**
 * The watchdog's escalation, second by second, against connections whose getStats() figures the
 * test sets (the browser's RTCPeerConnection is the only stand-in here; the watchdog is real).
 */
function connection(entries: () => Record<string, unknown>[]) {
  return {
    getStats: async () => new Map(entries().map((entry, index) => [String(index), entry])),
  } as unknown as RTCPeerConnection;
}

function setup(options: { publishing?: boolean; watched?: boolean } = {}) {
  const inbound = { frames: 0, bytes: 0 };
  const outbound = { frames: 0 };
  const repairs: RepairStep[] = [];
  /** Participants whose camera is on while we hold no subscription to it. */
  const missing: { participantId: string; since: number }[] = [];
  let health: Record<string, FeedHealth> = {};
  const startedAt = Date.now();
  /** When our camera's current publication started (a rejoin publishes it anew). */
  const publication = { since: startedAt };
  const host: WatchdogHost = {
    selfId: 'me',
    subscriberConnection: () =>
      connection(() => [
        { type: 'inbound-rtp', kind: 'video', mid: '1', framesDecoded: inbound.frames, bytesReceived: inbound.bytes },
        { type: 'transport', iceState: 'connected', dtlsState: 'connected' },
      ]),
    publisherConnection: () => connection(() => [{ type: 'outbound-rtp', kind: 'video', framesSent: outbound.frames }]),
    watchedFeeds: () =>
      options.watched === false ? [] : [{ feedId: 7, participantId: 'gus', mids: ['1'], startedAt }],
    missingFeeds: () => missing,
    publishingSince: () => (options.publishing ? publication.since : undefined),
    isBusy: () => false,
    repair: (step) => repairs.push(step),
    onHealth: (next) => (health = next),
  };
  const watchdog = new MediaWatchdog(host);
  /** Advances the clock second by second, ticking like the real timer does. */
  const run = async (seconds: number, each?: () => void) => {
    for (let i = 0; i < seconds; i++) {
      vi.setSystemTime(Date.now() + 1000);
      each?.();
      await watchdog.tick();
    }
  };
  return { inbound, outbound, publication, repairs, missing, health: () => health, watchdog, run };
}

describe('MediaWatchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-25T10:00:00Z'), toFake: ['Date'] });
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('leaves a feed alone while its frames grow', async () => {
    const room = setup();
    await room.run(20, () => (room.inbound.frames += 20));
    expect(room.repairs).toEqual([]);
    expect(room.health()).toEqual({});
  });

  it('says "connecting" before the first frame, then escalates step by step and says it failed', async () => {
    const room = setup();
    await room.run(3);
    expect(room.health()).toEqual({ gus: 'connecting' });
    expect(room.repairs).toEqual([]);
    await room.run(2);
    expect(room.repairs).toEqual(['keyframe']);
    await room.run(3);
    expect(room.repairs).toEqual(['keyframe', 'resubscribe']);
    await room.run(6);
    expect(room.repairs).toEqual(['keyframe', 'resubscribe', 'ice-restart']);
    await room.run(8);
    expect(room.repairs).toEqual(['keyframe', 'resubscribe', 'ice-restart', 'rejoin']);
    await room.run(12);
    expect(room.health()).toEqual({ gus: 'failed' });
    expect(room.watchdog.log.at(0)?.reason).toMatch(
      /no frame .* after the subscription started \(no bytes arrive; ice connected, dtls connected\)/,
    );
  });

  it('repairs a video that froze, says "poor connection" meanwhile, and logs the recovery', async () => {
    const room = setup();
    await room.run(5, () => (room.inbound.frames += 20));
    room.inbound.bytes = 1000;
    await room.run(4, () => (room.inbound.bytes += 500));
    expect(room.health()).toEqual({ gus: 'poor' });
    expect(room.repairs).toEqual(['keyframe']);
    expect(room.watchdog.log.at(-1)?.reason).toMatch(/video frozen for \d s \(bytes still arrive/);
    await room.run(2, () => (room.inbound.frames += 20));
    expect(room.health()).toEqual({});
    expect(room.watchdog.log.map((entry) => entry.step)).toEqual(['keyframe', 'recovered']);
  });

  it('publishes our camera again when it sends no frame, then rejoins', async () => {
    const room = setup({ publishing: true });
    await room.run(3, () => {
      room.outbound.frames += 20;
      room.inbound.frames += 20;
    });
    await room.run(7, () => (room.inbound.frames += 20));
    expect(room.repairs).toEqual(['republish']);
    expect(room.health()).toEqual({ me: 'poor' });
    await room.run(8, () => (room.inbound.frames += 20));
    expect(room.repairs).toEqual(['republish', 'rejoin']);
  });

  it('judges a rejoin\'s new publication from its own frame count, not the old connection\'s', async () => {
    const room = setup({ publishing: true, watched: false });
    await room.run(30, () => (room.outbound.frames += 30));
    // A rejoin: a new publisher connection, counting from zero, published now.
    room.outbound.frames = 0;
    room.publication.since = Date.now();
    await room.run(20, () => (room.outbound.frames += 30));
    expect(room.repairs).toEqual([]);
  });

  it('resyncs a camera that is on without a subscription, twice, then rejoins, then says it failed', async () => {
    const room = setup({ watched: false });
    room.missing.push({ participantId: 'ada', since: Date.now() });
    await room.run(7);
    expect(room.health()).toEqual({ ada: 'connecting' });
    expect(room.repairs).toEqual([]);
    await room.run(1);
    expect(room.repairs).toEqual(['resync']);
    await room.run(16);
    expect(room.repairs).toEqual(['resync', 'resync']);
    await room.run(16);
    expect(room.repairs).toEqual(['resync', 'resync', 'rejoin']);
    expect(room.health()).toEqual({ ada: 'connecting' });
    await room.run(16);
    expect(room.health()).toEqual({ ada: 'failed' });
    await room.run(3);
    expect(room.health()).toEqual({ ada: 'failed' });
    expect(room.watchdog.log.at(-1)?.reason).toMatch(/camera on for \d+ s but no subscription/);
    // Its feed is subscribed at last: nothing is missing any more.
    room.missing.length = 0;
    await room.run(1);
    expect(room.health()).toEqual({});
  });
});
