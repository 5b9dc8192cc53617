import { useEffect, useRef } from 'react';

export interface PlayerShortcutActions {
  togglePlay(): void;
  toggleMute(): void;
  toggleFullscreen(): void;
  toggleTheatre?(): void;
  /** Seconds forward (positive) or back (negative); absent when the broadcast cannot be sought. */
  seekBy?(seconds: number): void;
}

const SEEK_STEP_SECONDS = 5;

/** Where a key is the viewer's typing or a control's own key, not a shortcut. */
const OWNS_KEYS =
  'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role^="menu"], [role="dialog"]';
/** Space and Enter press a focused button or link; the shortcut must not do it twice. */
const PRESSABLE = 'button, a[href], [role="button"]';

/** The ARIA list of a player's shortcuts, for `aria-keyshortcuts`. */
export const SHORTCUT_KEYS = {
  play: 'k Space',
  mute: 'm',
  fullscreen: 'f',
  theatre: 't',
  seek: 'ArrowLeft ArrowRight',
};

/**
 * Video-site keys on the whole page while it shows the player: space or k play/pause, m sound,
 * f full screen, t theatre, ←/→ five seconds (mirrored right to left: the arrow towards the end of
 * the line goes forward, as the position bar does). Never while the viewer types (chat) or a
 * control or menu has the key.
 */
export function usePlayerShortcuts(actions: PlayerShortcutActions, direction: 'ltr' | 'rtl') {
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(OWNS_KEYS)) return;
      const now = latest.current;
      const forward = direction === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if (key === ' ' && target?.closest(PRESSABLE)) return;
      const seekBy = now.seekBy;
      const action: (() => void) | undefined = {
        ' ': now.togglePlay,
        k: now.togglePlay,
        m: now.toggleMute,
        f: now.toggleFullscreen,
        t: now.toggleTheatre,
        ArrowLeft: seekBy && (() => seekBy(key === forward ? SEEK_STEP_SECONDS : -SEEK_STEP_SECONDS)),
        ArrowRight: seekBy && (() => seekBy(key === forward ? SEEK_STEP_SECONDS : -SEEK_STEP_SECONDS)),
      }[key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [direction]);
}
