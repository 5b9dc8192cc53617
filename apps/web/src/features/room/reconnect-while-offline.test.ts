import { describe, expect, it } from 'vitest';
import {
  OFFLINE_RECONNECT_DELAY_MS,
  ROOM_RECONNECT_DELAY_MAX_MS,
  ROOM_RECONNECT_DELAY_MS,
  reconnectWhileOnline,
} from './reconnect-while-offline';

/** A stand-in for Socket.IO's Manager that records the steps it is given. */
function steps() {
  const set = { min: ROOM_RECONNECT_DELAY_MS, max: ROOM_RECONNECT_DELAY_MAX_MS };
  return {
    set,
    manager: {
      reconnectionDelay: (ms: number) => (set.min = ms),
      reconnectionDelayMax: (ms: number) => (set.max = ms),
    },
  };
}

describe('reconnectWhileOnline', () => {
  it('holds the attempts back while offline and reconnects at once when the network is back', () => {
    const { set, manager } = steps();
    const events = new EventTarget();
    let reconnects = 0;
    const stop = reconnectWhileOnline(manager, events, () => true, () => (reconnects += 1));
    expect(set).toEqual({ min: ROOM_RECONNECT_DELAY_MS, max: ROOM_RECONNECT_DELAY_MAX_MS });
    events.dispatchEvent(new Event('offline'));
    expect(set).toEqual({ min: OFFLINE_RECONNECT_DELAY_MS, max: OFFLINE_RECONNECT_DELAY_MS });
    expect(reconnects).toBe(0);
    events.dispatchEvent(new Event('online'));
    expect(set).toEqual({ min: ROOM_RECONNECT_DELAY_MS, max: ROOM_RECONNECT_DELAY_MAX_MS });
    expect(reconnects).toBe(1);
    stop();
    events.dispatchEvent(new Event('offline'));
    expect(set.min).toBe(ROOM_RECONNECT_DELAY_MS);
  });

  it('starts held back on a device that is offline already', () => {
    const { set, manager } = steps();
    reconnectWhileOnline(manager, new EventTarget(), () => false, () => undefined);
    expect(set).toEqual({ min: OFFLINE_RECONNECT_DELAY_MS, max: OFFLINE_RECONNECT_DELAY_MS });
  });
});
