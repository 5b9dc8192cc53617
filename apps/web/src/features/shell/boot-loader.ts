import { useEffect } from 'react';

/** Fades the full-screen loader of index.html out about 200 ms after the app has loaded. */
export function useHideBootLoader(isReady: boolean) {
  useEffect(() => {
    if (!isReady) return;
    const loader = document.getElementById('boot-loader');
    if (!loader) return;
    const fade = window.setTimeout(() => loader.classList.add('is-hidden'), 200);
    const remove = window.setTimeout(() => loader.remove(), 450);
    return () => {
      window.clearTimeout(fade);
      window.clearTimeout(remove);
    };
  }, [isReady]);
}
