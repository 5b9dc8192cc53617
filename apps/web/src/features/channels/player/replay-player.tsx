import type { BroadcastChapter } from '@meetcast/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/format-duration';
import { cn } from '../../../lib/cn';
import { replayChapters, type ReplayChapter } from './replay-chapters';

/**
 * The recording of an ended broadcast, in the same place the live picture was; the browser's
 * controls seek. Its chapters (ADR 048) are marked on a strip under the picture and listed with
 * their times; choosing one seeks there and plays.
 */
export function ReplayPlayer({
  url,
  title,
  duration,
  chapters,
}: {
  url: string;
  title: string;
  duration: number;
  chapters?: BroadcastChapter[] | undefined;
}) {
  const { t } = useTranslation('player');
  const video = useRef<HTMLVideoElement>(null);
  const [position, setPosition] = useState(0);
  const listed = replayChapters(chapters, duration);
  const current = listed.findLastIndex((chapter) => chapter.offset <= position);
  const seek = (offset: number) => {
    const element = video.current;
    if (!element) return;
    element.currentTime = offset;
    setPosition(offset);
    void element.play().catch(() => undefined);
  };
  return (
    <div role="region" aria-label={t('replay_label', { title })} className="overflow-hidden rounded-xl bg-black">
      <video
        ref={video}
        data-testid="replay-video"
        className="aspect-video w-full"
        src={url}
        controls
        preload="metadata"
        playsInline
        onTimeUpdate={(event) => setPosition(event.currentTarget.currentTime)}
      />
      {listed.length > 0 && <ChapterMarkers chapters={listed} duration={duration} onSeek={seek} />}
      <p className="bg-black/80 px-3 py-1 text-xs text-white/85">{t('replay_note')}</p>
      {listed.length > 0 && (
        <nav aria-label={t('chapters.title')} className="bg-slate-950 px-3 pb-3 pt-2 text-white">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-white/80">{t('chapters.title')}</h3>
          <ol className="mt-2 flex gap-2 overflow-x-auto pb-1" data-testid="replay-chapters">
            {listed.map((chapter, index) => (
              <li key={`${chapter.offset}-${index}`} className="shrink-0">
                <button
                  type="button"
                  aria-current={index === current ? 'true' : undefined}
                  onClick={() => seek(chapter.offset)}
                  className={cn(
                    'flex flex-col items-start rounded-lg px-3 py-1.5 text-start text-sm hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-primary-400',
                    index === current ? 'bg-white/20' : 'bg-white/5',
                  )}
                >
                  <span className="font-medium">{t(chapter.titleKey)}</span>
                  <time dateTime={`PT${Math.round(chapter.offset)}S`} className="text-xs tabular-nums text-white/75">
                    <bdi dir="ltr">{formatDuration(chapter.offset)}</bdi>
                  </time>
                </button>
              </li>
            ))}
          </ol>
        </nav>
      )}
    </div>
  );
}

/**
 * Where each chapter starts along the recording, as ticks under the picture, placed like the
 * browser's own position bar (left to right in every language); a tick seeks to its chapter.
 */
function ChapterMarkers({
  chapters,
  duration,
  onSeek,
}: {
  chapters: ReplayChapter[];
  duration: number;
  onSeek(offset: number): void;
}) {
  const { t } = useTranslation('player');
  return (
    <div dir="ltr" aria-hidden="true" className="relative h-2 bg-white/15" data-testid="chapter-markers">
      {chapters.map((chapter, index) => (
        <button
          key={`${chapter.offset}-${index}`}
          type="button"
          tabIndex={-1}
          title={`${formatDuration(chapter.offset)} ${t(chapter.titleKey)}`}
          onClick={() => onSeek(chapter.offset)}
          className="absolute top-0 h-2 w-1 -translate-x-1/2 bg-amber-400 hover:bg-amber-200"
          style={{ left: `${duration > 0 ? Math.min(100, (chapter.offset / duration) * 100) : 0}%` }}
        />
      ))}
    </div>
  );
}
