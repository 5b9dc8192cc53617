import { describe, expect, it } from 'vitest';
import { MAX_COUNTDOWN_MINUTES, SceneFormSchema, sceneFormValues, toSceneRequest } from './scene-request';

const NOW_MS = Date.UTC(2026, 11, 5, 3, 0, 0);
const NOW = NOW_MS / 1000;

describe('scene form', () => {
  it('turns minutes from now into the countdown end, and no minutes into 0 (cleared)', () => {
    const typed = SceneFormSchema.parse({ scene: 'starting_soon', scene_message: ' Soon ', countdown_minutes: '5' });
    expect(toSceneRequest(typed, NOW_MS)).toEqual({
      scene: 'starting_soon',
      scene_message: 'Soon',
      scene_countdown_to: NOW + 300,
    });
    const none = SceneFormSchema.parse({ scene: 'live', scene_message: '', countdown_minutes: '' });
    expect(toSceneRequest(none, NOW_MS)).toEqual({ scene: 'live', scene_message: '', scene_countdown_to: 0 });
  });

  it('refuses a countdown of 0, negative, fractional or over a day, and a message over its limit', () => {
    const fails = (countdown_minutes: string, scene_message = '') =>
      !SceneFormSchema.safeParse({ scene: 'ending', scene_message, countdown_minutes }).success;
    expect(fails('0')).toBe(true);
    expect(fails('-3')).toBe(true);
    expect(fails('2.5')).toBe(true);
    expect(fails(String(MAX_COUNTDOWN_MINUTES + 1))).toBe(true);
    expect(fails(String(MAX_COUNTDOWN_MINUTES))).toBe(false);
    expect(fails('', 'x'.repeat(201))).toBe(true);
  });

  it('starts from the scene on air, its countdown as the minutes still to go', () => {
    const overlay = { scene: 'be_right_back', scene_message: 'Break', scene_countdown_to: NOW + 150 } as const;
    expect(sceneFormValues(overlay, NOW_MS)).toEqual({
      scene: 'be_right_back',
      scene_message: 'Break',
      countdown_minutes: '3',
    });
    expect(sceneFormValues({ ...overlay, scene_countdown_to: NOW - 10 }, NOW_MS).countdown_minutes).toBe('');
    expect(sceneFormValues(undefined, NOW_MS)).toEqual({ scene: 'live', scene_message: '', countdown_minutes: '' });
  });
});
