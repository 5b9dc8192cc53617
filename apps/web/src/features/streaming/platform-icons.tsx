import type { StreamPlatform } from '@meetcast/contracts';
import { createLucideIcon, ServerIcon, SquarePlayIcon } from 'lucide-react';
import { cn } from '../../lib/cn';

// The icon set ships no brand marks, so Twitch's speech-bubble outline is drawn in its frame.
const TwitchIcon = createLucideIcon('twitch', [
  ['path', { d: 'M4 3h17v11l-5 5h-4l-3 3H7v-3H4Z', key: 'bubble' }],
  ['path', { d: 'M11 8v4M16 8v4', key: 'bars' }],
]);

const ICONS = { youtube: SquarePlayIcon, twitch: TwitchIcon, rtmp: ServerIcon } as const;
/** The platforms' own colours, on a tile that reads in light and dark alike. */
const TILES = {
  youtube: 'bg-red-600 text-white',
  twitch: 'bg-violet-600 text-white',
  rtmp: 'bg-slate-700 text-white dark:bg-slate-600',
} as const;

/** A platform's small coloured mark; the platform's name always stands next to it as text. */
export function PlatformMark({ platform, size = 'md' }: { platform: StreamPlatform; size?: 'sm' | 'md' }) {
  const Glyph = ICONS[platform];
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-lg',
        TILES[platform],
        size === 'sm' ? 'size-6' : 'size-10',
      )}
    >
      <Glyph className={size === 'sm' ? 'size-4' : 'size-6'} />
    </span>
  );
}
