import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { claimDisplayNumber, releaseDisplayNumber } from './virtual-screen.js';

// Far above the numbers composers use (from 90), so a composer running beside the tests is not disturbed.
const FROM = 250;
const claimed: number[] = [];
const claim = () => {
  const number = claimDisplayNumber(FROM);
  claimed.push(number);
  return number;
};

describe('display numbers', () => {
  afterEach(() => claimed.splice(0).forEach(releaseDisplayNumber));

  it('are never given twice until released, and a dead process’s claim is taken over', () => {
    const first = claim();
    const second = claim();
    expect(second).not.toBe(first);
    releaseDisplayNumber(first);
    expect(claim()).toBe(first);

    // A claim whose process is gone (no such pid) is stale.
    const next = Math.max(first, second) + 1;
    writeFileSync(`/tmp/.meetcast-display-${next}.claim`, '2147483646');
    expect(claim()).toBe(next);
    expect(existsSync(`/tmp/.meetcast-display-${next}.claim`)).toBe(true);
  });

  it('skips a number whose X server is running', () => {
    const first = claim();
    releaseDisplayNumber(first);
    writeFileSync(`/tmp/.X${first}-lock`, `${String(process.pid).padStart(10)}\n`);
    try {
      expect(claim()).not.toBe(first);
    } finally {
      rmSync(`/tmp/.X${first}-lock`, { force: true });
      releaseDisplayNumber(first);
    }
  });
});
