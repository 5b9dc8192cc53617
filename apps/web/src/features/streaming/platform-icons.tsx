import type { StreamPlatform } from '@meetcast/contracts';
import { Icon, type IconProps } from '../../components/icons';
import { cn } from '../../lib/cn';

const YouTubeIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="2" y="5" width="20" height="14" rx="4" />
    <path d="m10 9 5 3-5 3Z" fill="currentColor" />
  </Icon>
);
const TwitchIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 3h17v11l-5 5h-4l-3 3H7v-3H4Z" />
    <path d="M11 8v4M16 8v4" />
  </Icon>
);
const RtmpIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="4" width="18" height="7" rx="2" />
    <rect x="3" y="13" width="18" height="7" rx="2" />
    <path d="M7 7.5h.01M7 16.5h.01" />
  </Icon>
);

const ICONS = { youtube: YouTubeIcon, twitch: TwitchIcon, rtmp: RtmpIcon } as const;
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
