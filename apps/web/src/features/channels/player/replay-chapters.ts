import type { BroadcastChapter, BroadcastScene } from '@meetcast/contracts';

/** A chapter as the replay lists it: where it starts and the `player` key of its title. */
export interface ReplayChapter {
  offset: number;
  titleKey:
    | 'chapters.start'
    | 'chapters.screen_share_start'
    | 'chapters.screen_share_stop'
    | `chapters.layouts.${NonNullable<BroadcastChapter['layout']>}`
    | `chapters.scenes.${BroadcastScene}`;
}

/** Every kind but `layout` has one title; a kind added to the contract fails the typecheck here. */
const TITLE_KEYS: Record<Exclude<BroadcastChapter['kind'], 'layout'>, ReplayChapter['titleKey']> = {
  screen_share_start: 'chapters.screen_share_start',
  screen_share_stop: 'chapters.screen_share_stop',
  scene_live: 'chapters.scenes.live',
  scene_starting_soon: 'chapters.scenes.starting_soon',
  scene_be_right_back: 'chapters.scenes.be_right_back',
  scene_ending: 'chapters.scenes.ending',
};

/**
 * The replay's chapter list (ADR 048): a "Start" chapter at 0 when the first one comes later, each
 * chapter within the recording's length, in order. No chapters, no list.
 */
export function replayChapters(chapters: BroadcastChapter[] | undefined, duration: number): ReplayChapter[] {
  const listed: ReplayChapter[] = [];
  for (const chapter of [...(chapters ?? [])].sort((a, b) => a.offset - b.offset)) {
    if (chapter.offset > duration) continue;
    if (chapter.kind === 'layout') {
      if (chapter.layout) listed.push({ offset: chapter.offset, titleKey: `chapters.layouts.${chapter.layout}` });
    } else {
      listed.push({ offset: chapter.offset, titleKey: TITLE_KEYS[chapter.kind] });
    }
  }
  if (listed.length > 0 && listed[0]!.offset > 0) listed.unshift({ offset: 0, titleKey: 'chapters.start' });
  return listed;
}
