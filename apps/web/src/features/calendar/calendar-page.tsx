import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/spinner';
import { useMeetingDialogs } from '../meetings';
import { browserTimeZone, isKnownTimeZone } from '../../lib/zoned-time';
import { useCurrentUser } from '../session';
import { CalendarFeed } from './calendar-feed';

// FullCalendar is the heaviest part of the app: it loads only on this page.
const CalendarView = lazy(() => import('./calendar-view'));

export default function CalendarPage() {
  const { t } = useTranslation('calendar');
  const user = useCurrentUser();
  const dialogs = useMeetingDialogs();
  const zone = isKnownTimeZone(user?.time_zone) ? user.time_zone : browserTimeZone();
  return (
    <section>
      <PageHeader
        title={t('title')}
        description={t('description', { zone })}
        actions={<Button onClick={() => dialogs.open('schedule')}>{t('schedule')}</Button>}
      />
      <Suspense fallback={<PageSpinner label={t('loading')} />}>
        <CalendarView zone={zone} />
      </Suspense>
      <CalendarFeed />
    </section>
  );
}
