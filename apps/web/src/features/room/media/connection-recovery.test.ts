import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ATTEMPT_TIMEOUT_MS,
  ConnectionRecovery,
  OFFLINE_RECHECK_MS,
  REJOIN_DELAYS_MS,
  type RecoveryTarget,
} from './connection-recovery';
import type { MediaStatus } from './media-types';

/**
 * The rejoin scheduling against a target whose starts the test settles by hand: each `start` is
 * recorded with its own resolve/reject, the way a Janus session's opening ends (or never does).
 */
function setup(options: { hasJoinedSession?: boolean } = {}) {
  type Attempt = { at: number; resolve: () => void; reject: (error: Error) => void };
  const starts: Attempt[] = [];
  const resumes: Attempt[] = [];
  const statuses: MediaStatus[] = [];
  let teardowns = 0;
  const network = { isOffline: false };
  /** A joined session kept (RoomMedia: a session whose camera joined); a teardown drops it. */
  let hasSession = options.hasJoinedSession ?? false;
  const target: RecoveryTarget = {
    isSignallingUp: () => false,
    restartIce: async () => undefined,
    teardown: () => {
      teardowns += 1;
      hasSession = false;
    },
    start: () =>
      new Promise<void>((resolve, reject) => starts.push({ at: Date.now(), resolve, reject })),
    canResume: () => hasSession,
    resume: () =>
      new Promise<void>((resolve, reject) => resumes.push({ at: Date.now(), resolve, reject })),
    onStatus: (status) => statuses.push(status),
    isOffline: () => network.isOffline,
  };
  const recovery = new ConnectionRecovery(target);
  const dropSession = () => (hasSession = false);
  return { recovery, starts, resumes, statuses, network, teardowns: () => teardowns, dropSession };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('ConnectionRecovery', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gives up an attempt that hangs and tries again after the short back-off', async () => {
    const { recovery, starts } = setup();
    const t0 = Date.now();
    recovery.trouble('signalling');
    await flush();
    expect(starts).toHaveLength(1);
    // The first attempt never answers (a connect begun while the link was down).
    await vi.advanceTimersByTimeAsync(ATTEMPT_TIMEOUT_MS - 1);
    expect(starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1 + REJOIN_DELAYS_MS[0]!);
    expect(starts).toHaveLength(2);
    expect(starts[1]!.at - t0).toBe(ATTEMPT_TIMEOUT_MS + REJOIN_DELAYS_MS[0]!);
    // A machine too loaded to join in time gets longer each time: 12 s, then 24 s at most.
    const gapsAfter = [];
    for (let i = 0; i < 3; i += 1) {
      const count = starts.length;
      while (starts.length === count) await vi.advanceTimersByTimeAsync(100);
      gapsAfter.push(starts.at(-1)!.at - starts.at(-2)!.at);
    }
    expect(gapsAfter).toEqual([2 * ATTEMPT_TIMEOUT_MS + 500, 4 * ATTEMPT_TIMEOUT_MS + 1000, 4 * ATTEMPT_TIMEOUT_MS + 2000]);
    recovery.close();
  });

  it('retries failed attempts with growing delays capped at 2 s', async () => {
    const { recovery, starts } = setup();
    recovery.trouble('signalling');
    await flush();
    for (const delay of [250, 500, 1000, 2000, 2000, 2000]) {
      starts.at(-1)!.reject(new Error('no route'));
      await vi.advanceTimersByTimeAsync(delay - 1);
      const count = starts.length;
      await vi.advanceTimersByTimeAsync(1);
      expect(starts).toHaveLength(count + 1);
    }
    const gaps = starts.slice(1).map((start, i) => start.at - starts[i]!.at);
    expect(gaps).toEqual([250, 500, 1000, 2000, 2000, 2000]);
    recovery.close();
  });

  it('starts a fresh attempt at once when the network is back, dropping the one under way', async () => {
    const { recovery, starts, teardowns } = setup();
    recovery.trouble('signalling');
    await flush();
    await vi.advanceTimersByTimeAsync(3000);
    const before = teardowns();
    recovery.networkBack();
    await flush();
    expect(starts).toHaveLength(2);
    expect(teardowns()).toBe(before + 1);
    // The stale attempt answering late changes nothing; the fresh one's success ends the run.
    starts[0]!.resolve();
    starts[1]!.resolve();
    await vi.advanceTimersByTimeAsync(ATTEMPT_TIMEOUT_MS * 2);
    expect(starts).toHaveLength(2);
    expect(recovery.isBusy()).toBe(true); // still 'reconnecting' until ICE says connected
    recovery.recovered();
    expect(recovery.isBusy()).toBe(false);
    recovery.close();
  });

  it('keeps the attempt begun when the network came back when the room\'s connection then opens', async () => {
    const { recovery, starts } = setup();
    recovery.trouble('signalling');
    await flush();
    await vi.advanceTimersByTimeAsync(3000);
    recovery.networkBack(); // the browser's `online`: the attempt begun offline is dropped
    await flush();
    expect(starts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1500);
    recovery.networkBack(); // the room's socket reconnected meanwhile: the fresh attempt goes on
    await flush();
    expect(starts).toHaveLength(2);
    starts[1]!.reject(new Error('refused'));
    await flush();
    // Between attempts, a later signal cuts the back-off short again.
    recovery.networkBack();
    await flush();
    expect(starts).toHaveLength(3);
    recovery.close();
  });

  it('cuts a back-off short when the network is back', async () => {
    const { recovery, starts } = setup();
    recovery.trouble('signalling');
    await flush();
    for (let i = 0; i < 4; i += 1) {
      starts.at(-1)!.reject(new Error('no route'));
      await flush();
    }
    // Now waiting out a 2-s back-off (or less); the network returns 100 ms into it.
    const count = starts.length;
    await vi.advanceTimersByTimeAsync(100);
    recovery.networkBack();
    await flush();
    expect(starts).toHaveLength(count + 1);
    recovery.close();
  });

  it('leaves a healthy connection and the first join alone when the network comes back', async () => {
    const { recovery, starts } = setup();
    recovery.networkBack();
    await flush();
    expect(starts).toHaveLength(0);
    recovery.recovered();
    recovery.networkBack();
    await flush();
    expect(starts).toHaveLength(0);
    recovery.close();
  });

  it('says it failed once the rejoin window has passed', async () => {
    const { recovery, starts, statuses } = setup();
    recovery.trouble('signalling');
    await flush();
    await vi.advanceTimersByTimeAsync(125_000);
    expect(statuses.at(-1)).toBe('failed');
    const count = starts.length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(starts).toHaveLength(count);
    recovery.close();
  });

  it('makes no attempt while the device is offline, and one at once when the network is back', async () => {
    const { recovery, starts, network, teardowns } = setup();
    network.isOffline = true;
    recovery.trouble('signalling');
    await flush();
    // The old session is let go, but nothing tries to connect through a network that is not there.
    expect(teardowns()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(starts).toHaveLength(0);
    const backAt = Date.now();
    network.isOffline = false;
    recovery.networkBack();
    await flush();
    expect(starts).toHaveLength(1);
    expect(starts[0]!.at).toBe(backAt);
    starts[0]!.resolve();
    await flush();
    recovery.recovered();
    expect(recovery.isBusy()).toBe(false);
    recovery.close();
  });

  it('looks again by itself should the return of the network go unheard', async () => {
    const { recovery, starts, network } = setup();
    network.isOffline = true;
    recovery.trouble('signalling');
    await flush();
    await vi.advanceTimersByTimeAsync(OFFLINE_RECHECK_MS * 3);
    expect(starts).toHaveLength(0);
    network.isOffline = false;
    await vi.advanceTimersByTimeAsync(OFFLINE_RECHECK_MS);
    expect(starts).toHaveLength(1);
    recovery.close();
  });

  it('stops making attempts when the device goes offline between them', async () => {
    const { recovery, starts, network } = setup();
    recovery.trouble('signalling');
    await flush();
    expect(starts).toHaveLength(1);
    network.isOffline = true;
    starts[0]!.reject(new Error('no route'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(starts).toHaveLength(1);
    recovery.close();
  });

  it('keeps an attempt that got through when the room\'s connection opens before the media is up', async () => {
    const { recovery, starts, teardowns } = setup();
    recovery.trouble('signalling');
    await flush();
    await vi.advanceTimersByTimeAsync(3000);
    recovery.networkBack(); // the browser's `online`
    await flush();
    expect(starts).toHaveLength(2);
    starts[1]!.resolve(); // the new session joined; Janus' answer and ICE still to come
    await flush();
    const before = teardowns();
    recovery.networkBack(); // the room's socket reconnects meanwhile
    await flush();
    expect(starts).toHaveLength(2);
    expect(teardowns()).toBe(before);
    recovery.close();
  });

  it('keeps a joined session through a cut and resumes it when the network is back', async () => {
    const { recovery, starts, resumes, network, teardowns } = setup({ hasJoinedSession: true });
    network.isOffline = true;
    recovery.trouble('ice');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(resumes).toHaveLength(0);
    expect(starts).toHaveLength(0);
    expect(teardowns()).toBe(0);
    network.isOffline = false;
    recovery.networkBack();
    await flush();
    expect(resumes).toHaveLength(1);
    resumes[0]!.resolve();
    await flush();
    // The second signal of the return (the room's connection) leaves the resumed session alone.
    recovery.networkBack();
    await flush();
    expect(resumes).toHaveLength(1);
    recovery.recovered();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(starts).toHaveLength(0);
    expect(teardowns()).toBe(0);
    recovery.close();
  });

  it('tries the claim again while the connection fails, and joins from scratch once the session is gone', async () => {
    const { recovery, starts, resumes, teardowns, dropSession } = setup({ hasJoinedSession: true });
    recovery.trouble('signalling');
    await flush();
    resumes[0]!.reject(new Error('no route'));
    await vi.advanceTimersByTimeAsync(REJOIN_DELAYS_MS[0]!);
    expect(resumes).toHaveLength(2);
    expect(teardowns()).toBe(0);
    // Janus no longer knows the session (RoomMedia drops it on the refusal).
    dropSession();
    resumes[1]!.reject(new Error('No such session'));
    await vi.advanceTimersByTimeAsync(REJOIN_DELAYS_MS[1]!);
    expect(starts).toHaveLength(1);
    expect(teardowns()).toBe(1);
    recovery.close();
  });

  it('joins from scratch when ICE does not come back after a resume', async () => {
    const { recovery, starts, resumes, teardowns } = setup({ hasJoinedSession: true });
    recovery.trouble('signalling');
    await flush();
    resumes[0]!.resolve();
    await vi.advanceTimersByTimeAsync(8000 - 1);
    expect(starts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(teardowns()).toBe(1);
    expect(starts).toHaveLength(1);
    expect(resumes).toHaveLength(1);
    recovery.close();
  });

  it('joins from scratch when the watchdog asks, whatever session is kept', async () => {
    const { recovery, starts, resumes } = setup({ hasJoinedSession: true });
    recovery.rejoinNow({ fromScratch: true });
    await flush();
    expect(resumes).toHaveLength(0);
    expect(starts).toHaveLength(1);
    recovery.close();
  });
});
