import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles from the first wait and stops at the longest', () => {
    const schedule = { firstMs: 1000, maxMs: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7].map((retry) => backoffDelay(retry, schedule))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });

  it('waits the same every time with a factor of 1', () => {
    const schedule = { firstMs: 1000, maxMs: 1000, factor: 1 };
    expect([1, 2, 10].map((retry) => backoffDelay(retry, schedule))).toEqual([1000, 1000, 1000]);
  });

  it('stays finite however long the outage lasts', () => {
    expect(backoffDelay(10_000, { firstMs: 250, maxMs: 30_000 })).toBe(30_000);
  });

  it('treats a retry number below 1 as the first', () => {
    expect(backoffDelay(0, { firstMs: 250, maxMs: 30_000 })).toBe(250);
  });
});
