import { describe, expect, it } from 'vitest';
import { listedSeconds } from './rewind-window';

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
