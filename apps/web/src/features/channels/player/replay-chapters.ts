import type { BroadcastChapter } from '@meetcast/contracts';

/** A chapter as the replay lists it: where it starts and the `player` key of its title. */
export interface ReplayChapter {
  offset: number;
  titleKey:
    | 'chapters.start'
    | 'chapters.screen_share_start'
    | 'chapters.screen_share_stop'
    | `chapters.layouts.${NonNullable<BroadcastChapter['layout']>}`;
}

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
      listed.push({ offset: chapter.offset, titleKey: `chapters.${chapter.kind}` });
    }
  }
  if (listed.length > 0 && listed[0]!.offset > 0) listed.unshift({ offset: 0, titleKey: 'chapters.start' });
  return listed;
}
