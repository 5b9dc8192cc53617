import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { readPreference, writePreference } from '../../lib/preferences';

/** Below this width the sidebar floats over the page and closes on every route change. */
export const SIDEBAR_BREAKPOINT_PX = 1024;

const isNarrow = () => window.innerWidth < SIDEBAR_BREAKPOINT_PX;

/**
 * The sidebar's open flag: kept under the `sidebar` preference on wide screens; on narrow screens it
 * starts closed and closes whenever the route changes.
 */
export function useSidebar() {
  const [isOpen, setIsOpen] = useState(() => !isNarrow() && readPreference('sidebar') !== 'false');
  const [isOverlay, setIsOverlay] = useState(isNarrow);
  const { pathname } = useLocation();

  useEffect(() => {
    const media = window.matchMedia(`(max-width: ${SIDEBAR_BREAKPOINT_PX - 0.02}px)`);
    const onChange = () => {
      setIsOverlay(media.matches);
      setIsOpen(!media.matches && readPreference('sidebar') !== 'false');
    };
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);

  // Closing on navigation is derived while rendering (React's "adjust state on prop change" pattern).
  const [lastPath, setLastPath] = useState(pathname);
  if (pathname !== lastPath) {
    setLastPath(pathname);
    if (isNarrow()) setIsOpen(false);
  }

  const setOpen = useCallback((open: boolean) => {
    setIsOpen(open);
    if (!isNarrow()) writePreference('sidebar', String(open));
  }, []);

  return { isOpen, isOverlay, setOpen, toggle: () => setOpen(!isOpen) };
}
