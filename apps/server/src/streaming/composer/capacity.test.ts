import { describe, expect, it } from 'vitest';
import { FULL_HD, lighterThan, maySpareLaunchBeside, pickQuality, QUALITIES, qualityNamed } from './capacity.js';

const [best, , lightest] = QUALITIES;

describe('composer capacity', () => {
  it('gives the first broadcast of a two-core machine 720p30 and refuses a second', () => {
    expect(pickQuality([], 2)?.name).toBe('720p30');
    expect(pickQuality([best!], 2)).toBeUndefined();
  });

  it('gives a four-core machine two at 720p30, a third at a lighter encode, and refuses a fourth', () => {
    expect(pickQuality([best!], 4)?.name).toBe('720p30');
    expect(pickQuality([best!, best!], 4)?.name).toBe('540p30');
    expect(pickQuality([best!, best!, lightest!], 4)).toBeUndefined();
  });

  it('lets a larger machine run several at full quality', () => {
    expect(pickQuality([best!, best!, best!], 8)?.name).toBe('720p30');
  });

  it('refuses everything on a machine too small for even the lightest encode', () => {
    expect(pickQuality([], 1)).toBeUndefined();
  });

  it('launches a spare beside a running broadcast only with a whole core left over', () => {
    expect(maySpareLaunchBeside([], 2)).toBe(true);
    expect(maySpareLaunchBeside([best!], 2)).toBe(false);
    expect(maySpareLaunchBeside([best!], 4)).toBe(true);
    expect(maySpareLaunchBeside([best!, best!, best!], 4)).toBe(false);
  });

  it('gives 1080p30 only to a host who asks, on a machine that can afford it, else the best it can', () => {
    expect(pickQuality([], 8)?.name).toBe('720p30');
    expect(pickQuality([], 8, FULL_HD)?.name).toBe('1080p30');
    expect(pickQuality([], 2, FULL_HD)?.name).toBe('720p30');
    // Three cores with a 720p30 show running leave 1.3: not enough for 1080p30's 1.6.
    expect(pickQuality([best!], 3, FULL_HD)?.name).toBe('720p30');
    expect(pickQuality([best!], 4, FULL_HD)?.name).toBe('1080p30');
    expect(pickQuality([], 8, qualityNamed('720p30'))?.name).toBe('720p30');
  });

  it('steps 1080p30 down to 720p30 on the same 1080p screen, which the encoder scales', () => {
    const lighter = lighterThan(FULL_HD);
    expect(lighter).toMatchObject({ name: '720p30', width: 1280, screen: FULL_HD.screen });
    expect(lighterThan(lighter!)).toMatchObject({ name: '720p24', screen: FULL_HD.screen });
  });
});
