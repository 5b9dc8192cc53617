import type { BroadcastDestination } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { PlatformMark } from '../streaming';
import { StateBadge } from './state-badge';

const KNOWN_HEALTH = ['good', 'ok', 'bad', 'noData'];

/** One destination while live: its state, the server's sentence when it failed, and the figures it reports. */
export function DestinationStatus({
  destination,
  onRemove,
  onRetry,
}: {
  destination: BroadcastDestination;
  /** Given while the broadcast runs and the destination has not ended. */
  onRemove?: () => void;
  /** Given while the broadcast runs and the platform refused the destination: it is added again. */
  onRetry?: () => void;
}) {
  const { t, i18n } = useTranslation('streaming');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  const bitrate = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en', {
    style: 'unit',
    unit: 'kilobit-per-second',
    maximumFractionDigits: 0,
  });
  const figures: { label: string; value: string }[] = [];
  if (destination.bitrate_kbps !== null) {
    figures.push({ label: t('figures.bitrate'), value: bitrate.format(destination.bitrate_kbps) });
  }
  if (destination.fps !== null) figures.push({ label: t('figures.fps'), value: number.format(destination.fps) });
  if (destination.health !== null) {
    const health = KNOWN_HEALTH.includes(destination.health) ? t(`health.${destination.health}`) : destination.health;
    figures.push({ label: t('figures.health'), value: health });
  }
  if (destination.viewers !== null) {
    figures.push({ label: t('figures.viewers'), value: number.format(destination.viewers) });
  }
  return (
    <li className="space-y-2 py-3">
      <div className="flex items-center gap-2">
        <PlatformMark platform={destination.platform} size="sm" />
        <span className="min-w-0 flex-1">
          {/* Aligned to the page's start whatever the name's own direction. */}
          <span dir="auto" className="block truncate text-sm font-medium ltr:text-left rtl:text-right">
            {destination.name}
          </span>
          <span className="block text-xs text-slate-600 dark:text-slate-400">
            {t(`platforms.${destination.platform}`)}
          </span>
        </span>
        <StateBadge state={destination.state} />
      </div>
      {destination.error && (
        <p className="rounded-lg bg-red-50 p-2 text-xs text-red-800 dark:bg-red-500/10 dark:text-red-300">
          {destination.error}
        </p>
      )}
      {figures.length > 0 && (
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
          {figures.map((figure) => (
            <div key={figure.label} className="flex gap-1">
              <dt className="text-slate-600 dark:text-slate-400">{figure.label}</dt>
              <dd className="font-semibold tabular-nums">{figure.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {onRetry && (
        <Button
          size="sm"
          variant="secondary"
          aria-label={t('live.retry_destination_name', { name: destination.name })}
          onClick={onRetry}
        >
          {t('live.retry_destination')}
        </Button>
      )}
      {onRemove && (
        <Button
          size="sm"
          variant="ghost"
          // The ghost look sets its own text colour; `!` lets the warning red win over it.
          className="text-red-700! dark:text-red-300!"
          aria-label={t('live.remove_destination_name', { name: destination.name })}
          onClick={onRemove}
        >
          {t('live.remove_destination')}
        </Button>
      )}
    </li>
  );
}
