import type { LiveBroadcast } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';
import { isBackstage, peopleOnStage } from './on-stage';

const broadcast = (state: LiveBroadcast['state'], onStage: string[] | null) =>
  ({ state, on_stage: onStage }) as LiveBroadcast;

describe('isBackstage', () => {
  it('is true only for someone in the room left off the stage of a running broadcast', () => {
    expect(isBackstage(broadcast('live', ['host']), 'guest')).toBe(true);
    expect(isBackstage(broadcast('starting', ['host']), 'guest')).toBe(true);
    expect(isBackstage(broadcast('live', ['host', 'guest']), 'guest')).toBe(false);
  });

  it('is false when nothing runs, the stage is not shown, or who we are is not known yet', () => {
    expect(isBackstage(broadcast('ended', ['host']), 'guest')).toBe(false);
    expect(isBackstage(broadcast('failed', []), 'guest')).toBe(false);
    expect(isBackstage(broadcast('live', null), 'guest')).toBe(false);
    expect(isBackstage(null, 'guest')).toBe(false);
    expect(isBackstage(undefined, 'guest')).toBe(false);
    expect(isBackstage(broadcast('live', ['host']), undefined)).toBe(false);
  });
});

describe('peopleOnStage', () => {
  const people = [{ id: 'host' }, { id: 'guest' }, { id: 'composer' }, { id: 'late' }];

  it('keeps the people on stage, in the room’s order, never the composer', () => {
    expect(peopleOnStage(people, 'composer', ['late', 'host', 'composer'])).toEqual([{ id: 'host' }, { id: 'late' }]);
  });

  it('shows nobody while the stage is unknown or empty, and ignores ids no longer in the room', () => {
    expect(peopleOnStage(people, 'composer', null)).toEqual([]);
    expect(peopleOnStage(people, 'composer', [])).toEqual([]);
    expect(peopleOnStage(people, 'composer', ['gone'])).toEqual([]);
  });
});
