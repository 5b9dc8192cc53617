import { describe, expect, it } from 'vitest';
import { pickQuality, QUALITIES } from './capacity.js';

const [best, lighter] = QUALITIES;

describe('composer capacity', () => {
  it('gives the first broadcast of a two-core machine 720p30, the second a lighter encode, refuses a third', () => {
    expect(pickQuality([], 2)?.name).toBe('720p30');
    expect(pickQuality([best!], 2)?.name).toBe('720p24');
    expect(pickQuality([best!, lighter!], 2)).toBeUndefined();
  });

  it('lets a larger machine run several at full quality', () => {
    expect(pickQuality([best!, best!, best!], 8)?.name).toBe('720p30');
  });

  it('refuses everything on a machine too small for even the lightest encode', () => {
    expect(pickQuality([], 1)).toBeUndefined();
  });
});
