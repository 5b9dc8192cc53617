import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { meetingsApi } from '../meetings';

/** The private ICS feed address that calendar apps subscribe to, with a way to give it a new one. */
export function CalendarFeed() {
  const { t } = useTranslation('calendar');
  const [url, setUrl] = useState<string>();
  const [isBusy, setIsBusy] = useState(false);

  async function load(reset: boolean) {
    setIsBusy(true);
    try {
      const answer = reset ? await meetingsApi.resetCalendarFeed() : await meetingsApi.calendarFeed();
      setUrl(answer.data.url);
      if (reset) toast.success(answer.message);
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setIsBusy(false);
    }
  }

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast.success(t('feed.copied'));
    } catch {
      toast.error(t('feed.copy_failed'));
    }
  }

  return (
    <section
      className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
      aria-labelledby="calendar-feed"
    >
      <h2 id="calendar-feed" className="font-semibold text-slate-900 dark:text-white">
        {t('feed.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('feed.text')}</p>
      {url ? (
        <div className="mt-3 space-y-2">
          <input
            readOnly
            value={url}
            aria-label={t('feed.address')}
            onFocus={(event) => event.target.select()}
            className="block w-full rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
          />
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => void copy()}>
              {t('feed.copy')}
            </Button>
            <Button size="sm" variant="secondary" isLoading={isBusy} onClick={() => void load(true)}>
              {t('feed.reset')}
            </Button>
          </div>
        </div>
      ) : (
        <Button className="mt-3" size="sm" variant="secondary" isLoading={isBusy} onClick={() => void load(false)}>
          {t('feed.show')}
        </Button>
      )}
    </section>
  );
}
