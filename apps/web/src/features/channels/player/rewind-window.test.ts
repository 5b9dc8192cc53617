import { describe, expect, it } from 'vitest';
import { LIVE_THRESHOLD_SECONDS, listedSeconds, rewindTarget } from './rewind-window';

describe('listedSeconds', () => {
  it('adds up the durations of the segments the rewind playlist lists', () => {
    const playlist = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-TARGETDURATION:4',
      '#EXT-X-MEDIA-SEQUENCE:1733350000000000',
      '#EXTINF:4.000000,',
      'dvr-1733350000000000.ts',
      '#EXTINF:4.000000,',
      'dvr-1733350000000001.ts',
      '#EXTINF:3.966667,',
      'dvr-1733350000000002.ts',
    ].join('\n');
    expect(listedSeconds(playlist)).toBeCloseTo(11.966667, 5);
  });

  it('is nothing before the muxer has listed a segment', () => {
    expect(listedSeconds('#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n')).toBe(0);
    expect(listedSeconds('')).toBe(0);
  });
});

describe('rewindTarget', () => {
  it('goes back as far as asked while the window holds it', () => {
    expect(rewindTarget(25, 1920, 0)).toBe(25);
    expect(rewindTarget(5 * 60, 1920, 0)).toBe(300);
  });

  it('lands at the window’s start when asked further back than it holds', () => {
    expect(rewindTarget(5 * 60, 44, 0)).toBe(44);
    // Sixty steps of five seconds from live, each taken from the last one asked.
    let asked = 0;
    for (let step = 0; step < 60; step++) {
      const target = rewindTarget(asked + 5, 44, asked);
      expect(target).not.toBe('live');
      asked = target as number;
    }
    expect(asked).toBe(44);
  });

  it('steps back from live at least as far as the rewind can play, and forward into the last seconds is live', () => {
    expect(rewindTarget(5, 1920, 0)).toBe(LIVE_THRESHOLD_SECONDS);
    expect(rewindTarget(15, 1920, 10)).toBe(15);
    expect(rewindTarget(5, 1920, 10)).toBe('live');
    expect(rewindTarget(-5, 1920, 12)).toBe('live');
  });
});
