import { describe, expect, it } from 'vitest';
import { formatCountdown, sceneOnAir, secondsLeft } from './broadcast-scene';

const LIVE = { scene: 'live', scene_message: null, scene_countdown_to: null } as const;
const NO_PICTURE = { hasFramePlayed: false, peopleCount: 2, camerasOn: 2, hasWaitedLongEnough: false };

describe('formatCountdown', () => {
  it('shows minutes and seconds, with the hours from an hour on', () => {
    expect(formatCountdown(299)).toBe('04:59');
    expect(formatCountdown(60)).toBe('01:00');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(3599)).toBe('59:59');
    expect(formatCountdown(3600 + 4 * 60 + 59)).toBe('1:04:59');
    expect(formatCountdown(86_400)).toBe('24:00:00');
  });

  it('never shows a negative or fractional time', () => {
    expect(formatCountdown(-5)).toBe('00:00');
    expect(formatCountdown(9.7)).toBe('00:09');
  });
});

describe('secondsLeft', () => {
  it('counts whole seconds down to zero and stays there', () => {
    const to = 1_800_000_300;
    expect(secondsLeft(to, (to - 300) * 1000)).toBe(300);
    expect(secondsLeft(to, (to - 299.5) * 1000)).toBe(300);
    expect(secondsLeft(to, to * 1000)).toBe(0);
    expect(secondsLeft(to, (to + 60) * 1000)).toBe(0);
  });
});

describe('sceneOnAir', () => {
  it("shows the host's holding screen with its message and countdown, even once the people are seen", () => {
    const overlay = { scene: 'be_right_back', scene_message: 'Back soon', scene_countdown_to: 42 } as const;
    const expected = { scene: 'be_right_back', message: 'Back soon', countdownTo: 42 };
    expect(sceneOnAir(overlay, NO_PICTURE)).toEqual(expected);
    expect(sceneOnAir(overlay, { ...NO_PICTURE, hasFramePlayed: true })).toEqual(expected);
  });

  it('shows a plain "Starting soon" on live until the first camera frame plays, then the people', () => {
    const plain = { scene: 'starting_soon', message: null, countdownTo: null };
    expect(sceneOnAir(LIVE, NO_PICTURE)).toEqual(plain);
    expect(sceneOnAir(LIVE, { ...NO_PICTURE, peopleCount: 0, camerasOn: 0 })).toEqual(plain);
    expect(sceneOnAir(LIVE, { ...NO_PICTURE, hasFramePlayed: true })).toBeNull();
    // Frames seen once: a camera turned off later shows that person's initials, not the card.
    expect(
      sceneOnAir(LIVE, { hasFramePlayed: true, peopleCount: 2, camerasOn: 0, hasWaitedLongEnough: false }),
    ).toBeNull();
  });

  it('shows the people at once when no camera is on, and after the wait when no frame ever comes', () => {
    expect(sceneOnAir(LIVE, { ...NO_PICTURE, camerasOn: 0 })).toBeNull();
    expect(sceneOnAir(LIVE, { ...NO_PICTURE, hasWaitedLongEnough: true })).toBeNull();
    // Nobody in the room: the card, however long it has been.
    expect(sceneOnAir(LIVE, { ...NO_PICTURE, peopleCount: 0, camerasOn: 0, hasWaitedLongEnough: true })).not.toBeNull();
  });
});
