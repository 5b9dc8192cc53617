import type { LiveBroadcast } from '@meetcast/contracts';
import { RadioIcon } from 'lucide-react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { GoLivePlanFields, useGoLivePlan } from './go-live-plan';
import { useGoLive } from './live-api';

/**
 * While rehearsing (ADR 047): where to stream and whether to record, and "Go live", which makes the
 * running broadcast public on the same encode (go-live.php). Nothing is needed to go live: the
 * channel page shows it even with no destination.
 */
export function RehearsalGoLive({ broadcast, meetingTitle }: { broadcast: LiveBroadcast; meetingTitle: string }) {
  const { t } = useTranslation('streaming');
  const state = useGoLivePlan(meetingTitle);
  const goLive = useGoLive(broadcast.url_slug);
  const onSubmit = state.form.handleSubmit(({ destinations, record }) =>
    goLive.mutate({ destinations, record: record ? 1 : 0 }),
  );
  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-label={t('rehearsal.form')}
      className="space-y-4 rounded-lg border border-amber-300 p-4 dark:border-amber-500/40"
    >
      <p className="text-sm text-slate-700 dark:text-slate-300">{t('rehearsal.hint')}</p>
      <GoLivePlanFields state={state} legend={t('go_live.where')} />
      <Button type="submit" variant="danger" className="w-full" isLoading={goLive.isPending}>
        <RadioIcon className="size-4" />
        {t('go_live.submit')}
      </Button>
    </form>
  );
}

/** The "Rehearsal" mark: the studio's, and the room's in place of LIVE while rehearsing. */
export function RehearsalBadge() {
  return (
    <Suspense fallback={null}>
      <RehearsalBadgeInner />
    </Suspense>
  );
}

function RehearsalBadgeInner() {
  const { t } = useTranslation('streaming');
  return (
    <span
      role="status"
      aria-label={t('live.rehearsal_label')}
      className="inline-flex items-center gap-1.5 rounded bg-amber-400 px-2 py-0.5 text-xs font-bold tracking-wide text-slate-950"
    >
      <span aria-hidden className="size-1.5 rounded-full bg-slate-950" />
      {t('live.rehearsal')}
    </span>
  );
}
