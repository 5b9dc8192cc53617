import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/format-duration';
import { SHORTCUT_KEYS } from './player-shortcuts';

/** A drag lands once, where it ends, not at every step on the way (each would be a new HLS load from WebRTC). */
const SETTLE_MS = 300;

/**
 * The live position bar: from the oldest rewindable second to the live edge (at its end, which is on
 * the left right to left, as the range input draws it). Shows how far behind the viewer is.
 */
export function RewindBar({
  rewindable,
  behind,
  onSeekBehind,
}: {
  /** Seconds that can be rewound now. */
  rewindable: number;
  behind: number;
  onSeekBehind: (behind: number) => void;
}) {
  const { t } = useTranslation('player');
  const [draft, setDraft] = useState<number | undefined>(undefined);
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(settle.current), []);
  const shown = Math.min(rewindable, Math.max(0, draft ?? behind));
  const label = shown < 1 ? t('at_live') : t('behind', { time: formatDuration(shown) });
  return (
    <div className="flex items-center gap-2 px-3 pt-1">
      <input
        type="range"
        min={0}
        max={Math.max(1, Math.round(rewindable))}
        step={5}
        value={Math.round(rewindable - shown)}
        aria-label={t('position')}
        aria-valuetext={label}
        aria-keyshortcuts={SHORTCUT_KEYS.seek}
        data-testid="rewind-bar"
        className="h-2 min-w-0 flex-1 cursor-pointer accent-red-500"
        onChange={(event) => {
          const target = rewindable - Number(event.target.value);
          setDraft(target);
          clearTimeout(settle.current);
          settle.current = setTimeout(() => {
            setDraft(undefined);
            onSeekBehind(target);
          }, SETTLE_MS);
        }}
      />
      <span data-testid="rewind-position" className="shrink-0 text-xs tabular-nums text-white/90">
        {shown < 1 ? t('at_live') : <bdi dir="ltr">−{formatDuration(shown)}</bdi>}
      </span>
    </div>
  );
}
