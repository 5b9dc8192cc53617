import type { Participant } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';
import { expectedCameras } from './room-state';

const person = (id: string, fields: Partial<Participant>) => ({ id, video: true, ...fields }) as Participant;

describe('expectedCameras', () => {
  it('expects video from cameras that are on, not from someone reconnecting', () => {
    const participants = {
      a: person('a', {}),
      b: person('b', { video: false }),
      c: person('c', { reconnecting: true }),
    };
    expect(expectedCameras(participants)).toEqual(['a']);
  });
});
