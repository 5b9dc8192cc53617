import { useEffect, useRef } from 'react';

export interface ShortcutActions {
  toggleAudio: () => void;
  toggleVideo: () => void;
  toggleScreen: () => void;
  toggleHand: () => void;
  toggleChat: () => void;
}

/** m mute, v video, s share, h hand, c chat: never while typing, never with a modifier key. */
export function useRoomShortcuts(isActive: boolean, actions: ShortcutActions) {
  const ref = useRef(actions);
  useEffect(() => {
    ref.current = actions;
  });
  useEffect(() => {
    if (!isActive) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      const action = {
        m: ref.current.toggleAudio,
        v: ref.current.toggleVideo,
        s: ref.current.toggleScreen,
        h: ref.current.toggleHand,
        c: ref.current.toggleChat,
      }[event.key.toLowerCase()];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isActive]);
}
