import { describe, expect, it } from 'vitest';
import { chapterList } from './broadcast-chapter-list.js';

const start = new Date('2026-12-05T10:00:00Z');
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe('chapterList', () => {
  it('orders chapters by time and counts them from the start, rounded to the second', () => {
    expect(
      chapterList(
        [
          { kind: 'screen_share_start', layout: null, at: at(65.4) },
          { kind: 'layout', layout: 'spotlight', at: at(12.6) },
        ],
        start,
        120,
      ),
    ).toEqual([
      { kind: 'layout', layout: 'spotlight', offset: 13 },
      { kind: 'screen_share_start', layout: null, offset: 65 },
    ]);
  });

  it('counts a change made while starting as 0 and leaves out what is past the recording', () => {
    expect(
      chapterList(
        [
          { kind: 'layout', layout: 'grid', at: at(-3) },
          { kind: 'screen_share_stop', layout: null, at: at(121) },
        ],
        start,
        120,
      ),
    ).toEqual([{ kind: 'layout', layout: 'grid', offset: 0 }]);
  });

  it('leaves out rows it does not understand', () => {
    expect(
      chapterList(
        [
          { kind: 'camera_flip', layout: null, at: at(5) },
          { kind: 'layout', layout: 'mosaic', at: at(6) },
          { kind: 'layout', layout: null, at: at(7) },
          { kind: 'screen_share_start', layout: 'grid', at: at(8) },
        ],
        start,
        60,
      ),
    ).toEqual([{ kind: 'screen_share_start', layout: null, offset: 8 }]);
  });

  it('keeps scene changes as chapters of their own kind, with no layout', () => {
    expect(
      chapterList(
        [
          { kind: 'scene_starting_soon', layout: null, at: at(-2) },
          { kind: 'scene_live', layout: null, at: at(20) },
          { kind: 'scene_be_right_back', layout: null, at: at(30) },
          { kind: 'scene_ending', layout: 'grid', at: at(40) },
          { kind: 'scene_intermission', layout: null, at: at(45) },
        ],
        start,
        60,
      ),
    ).toEqual([
      { kind: 'scene_starting_soon', layout: null, offset: 0 },
      { kind: 'scene_live', layout: null, offset: 20 },
      { kind: 'scene_be_right_back', layout: null, offset: 30 },
      { kind: 'scene_ending', layout: null, offset: 40 },
    ]);
  });
});
