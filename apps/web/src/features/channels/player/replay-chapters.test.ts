import { describe, expect, it } from 'vitest';
import { replayChapters } from './replay-chapters';

describe('replayChapters', () => {
  it('lists no chapters when the broadcast has none', () => {
    expect(replayChapters(undefined, 60)).toEqual([]);
    expect(replayChapters([], 60)).toEqual([]);
  });

  it('starts with "Start" when the first chapter comes later, and keeps them in order', () => {
    expect(
      replayChapters(
        [
          { kind: 'screen_share_start', layout: null, offset: 40 },
          { kind: 'layout', layout: 'spotlight', offset: 12 },
          { kind: 'screen_share_stop', layout: null, offset: 55 },
        ],
        60,
      ),
    ).toEqual([
      { offset: 0, titleKey: 'chapters.start' },
      { offset: 12, titleKey: 'chapters.layouts.spotlight' },
      { offset: 40, titleKey: 'chapters.screen_share_start' },
      { offset: 55, titleKey: 'chapters.screen_share_stop' },
    ]);
  });

  it('needs no "Start" when a chapter is at 0, and drops what is past the end', () => {
    expect(
      replayChapters(
        [
          { kind: 'layout', layout: 'grid', offset: 0 },
          { kind: 'layout', layout: 'solo', offset: 90 },
        ],
        60,
      ),
    ).toEqual([{ offset: 0, titleKey: 'chapters.layouts.grid' }]);
  });

  it('titles scene changes by their scene, "On air" for the show itself', () => {
    expect(
      replayChapters(
        [
          { kind: 'scene_starting_soon', layout: null, offset: 0 },
          { kind: 'scene_live', layout: null, offset: 30 },
          { kind: 'scene_be_right_back', layout: null, offset: 50 },
          { kind: 'scene_ending', layout: null, offset: 58 },
        ],
        60,
      ),
    ).toEqual([
      { offset: 0, titleKey: 'chapters.scenes.starting_soon' },
      { offset: 30, titleKey: 'chapters.scenes.live' },
      { offset: 50, titleKey: 'chapters.scenes.be_right_back' },
      { offset: 58, titleKey: 'chapters.scenes.ending' },
    ]);
  });
});
