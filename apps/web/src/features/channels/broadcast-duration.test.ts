import { describe, expect, it } from 'vitest';
import { broadcastDuration } from './broadcast-duration';

describe('broadcastDuration', () => {
  it('is the time on air, from going live to the end', () => {
    expect(broadcastDuration({ started_at: 1_733_350_000, ended_at: 1_733_352_530 })).toBe(2530);
  });

  it('is none for a broadcast that never went live, has not ended, or whose times are not in order', () => {
    expect(broadcastDuration({ started_at: null, ended_at: 1_733_352_530 })).toBeUndefined();
    expect(broadcastDuration({ started_at: 1_733_350_000, ended_at: null })).toBeUndefined();
    expect(broadcastDuration({ started_at: 1_733_350_000, ended_at: 1_733_350_000 })).toBeUndefined();
  });
});
