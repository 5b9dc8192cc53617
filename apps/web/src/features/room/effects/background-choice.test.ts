import { describe, expect, it } from 'vitest';
import { backgroundKey, backgroundOptions, isSameBackground, parseBackground } from './background-choice';

describe('background choice', () => {
  it('reads back what was stored', () => {
    for (const choice of backgroundOptions(true)) expect(parseBackground(JSON.stringify(choice))).toEqual(choice);
  });

  it('falls back to no effect for missing, broken or unknown values', () => {
    for (const stored of [
      null,
      undefined,
      '',
      'not json',
      '42',
      'null',
      '{"kind":"scene","scene":"moon"}',
      '{"kind":"x"}',
    ]) {
      expect(parseBackground(stored)).toEqual({ kind: 'none' });
    }
  });

  it('gives each option its own key', () => {
    const keys = backgroundOptions(true).map(backgroundKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(['none', 'blur', 'scene_sunset', 'scene_lagoon', 'scene_meadow', 'image']);
    expect(backgroundOptions(false).map(backgroundKey)).not.toContain('image');
    expect(isSameBackground({ kind: 'scene', scene: 'lagoon' }, { kind: 'scene', scene: 'lagoon' })).toBe(true);
    expect(isSameBackground({ kind: 'scene', scene: 'lagoon' }, { kind: 'blur' })).toBe(false);
  });
});
