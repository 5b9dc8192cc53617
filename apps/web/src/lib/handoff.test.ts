import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Handoff, HeldCallback } from './handoff';

describe('Handoff', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands what it holds to the caller of the same key, once', () => {
    const closed: string[] = [];
    const handoff = new Handoff<number, string>((value) => closed.push(value), 1000);
    handoff.hold(7, 'session');
    expect(handoff.take(8)).toBeUndefined();
    expect(handoff.take(7)).toBe('session');
    expect(handoff.take(7)).toBeUndefined();
    vi.advanceTimersByTime(2000);
    expect(closed).toEqual([]);
  });

  it('closes what nobody took in time, and what a newer hold replaces', () => {
    const closed: string[] = [];
    const handoff = new Handoff<number, string>((value) => closed.push(value), 1000);
    handoff.hold(1, 'first');
    handoff.hold(2, 'second');
    expect(closed).toEqual(['first']);
    vi.advanceTimersByTime(1000);
    expect(closed).toEqual(['first', 'second']);
    expect(handoff.take(2)).toBeUndefined();
  });
});

describe('Handoff.extend', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts the time nobody took it from the extension, not from the hold', () => {
    const closed: string[] = [];
    const handoff = new Handoff<number, string>((value) => closed.push(value), 1000);
    handoff.hold(1, 'watch');
    vi.advanceTimersByTime(900);
    handoff.extend();
    vi.advanceTimersByTime(900);
    expect(handoff.take(1)).toBe('watch');
    handoff.hold(2, 'late');
    handoff.extend();
    vi.advanceTimersByTime(1000);
    expect(closed).toEqual(['late']);
  });
});

describe('HeldCallback', () => {
  it('passes the latest call made before listening to the listener, then every call', async () => {
    const heard: string[] = [];
    const callback = new HeldCallback<[string]>();
    callback.call('old');
    callback.call('latest');
    callback.listen((value) => heard.push(value));
    expect(heard).toEqual([]);
    await Promise.resolve();
    callback.call('next');
    expect(heard).toEqual(['latest', 'next']);
  });
});
