import type { BroadcastChapter, BroadcastChapterKind, BroadcastLayout } from '@meetcast/contracts';
import { BROADCAST_CHAPTER_KINDS, BROADCAST_LAYOUTS } from '@meetcast/contracts';

export interface StoredChapter {
  kind: string;
  layout: string | null;
  at: Date;
}

const isKind = (kind: string): kind is BroadcastChapterKind => (BROADCAST_CHAPTER_KINDS as readonly string[]).includes(kind);
const isLayout = (layout: string | null): layout is BroadcastLayout =>
  layout !== null && (BROADCAST_LAYOUTS as readonly string[]).includes(layout);

/**
 * A replay's chapters from what was stored while it was live (ADR 048): each one's offset counted
 * from the broadcast's start (when the recording starts), in order. Before the start counts as 0;
 * past the recording's end, or a row no longer understood, is left out.
 */
export function chapterList(rows: StoredChapter[], startedAt: Date, durationSeconds: number): BroadcastChapter[] {
  const chapters: BroadcastChapter[] = [];
  const sorted = [...rows].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const row of sorted) {
    if (!isKind(row.kind)) continue;
    const offset = Math.max(0, Math.round((row.at.getTime() - startedAt.getTime()) / 1000));
    if (offset > durationSeconds) continue;
    if (row.kind !== 'layout') {
      chapters.push({ kind: row.kind, layout: null, offset });
    } else if (isLayout(row.layout)) {
      chapters.push({ kind: row.kind, layout: row.layout, offset });
    }
  }
  return chapters;
}
