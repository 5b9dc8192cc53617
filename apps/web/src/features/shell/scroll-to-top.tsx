import { ChevronUpIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Appears once the page has scrolled more than 50 px. */
export const SCROLL_TO_TOP_THRESHOLD_PX = 50;

export function ScrollToTop() {
  const { t } = useTranslation('shell');
  const [isVisible, setIsVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setIsVisible(window.scrollY > SCROLL_TO_TOP_THRESHOLD_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!isVisible) return null;
  return (
    <button
      type="button"
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      aria-label={t('scroll_to_top')}
      className="fixed end-6 bottom-6 z-30 inline-flex size-11 animate-fade-in items-center justify-center rounded-full bg-primary-600 text-white shadow-lg shadow-primary-900/30 hover:bg-primary-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:bg-primary-500 dark:text-slate-950 dark:hover:bg-primary-400"
    >
      <ChevronUpIcon className="size-5" />
    </button>
  );
}
