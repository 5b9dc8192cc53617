import { BROADCAST_LAYOUTS, type LiveBroadcast } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useSetLayout } from './live-api';

/**
 * How the broadcast picture arranges the meeting (ADR 039), changed live: one labelled toggle
 * button per layout, the chosen one pressed. The meeting room's own grid does not change.
 */
export function LayoutPicker({ broadcast }: { broadcast: LiveBroadcast }) {
  const { t } = useTranslation('streaming');
  const setLayout = useSetLayout(broadcast.url_slug);
  const chosen = setLayout.isPending ? setLayout.variables : broadcast.overlay.layout;
  return (
    <div className="space-y-2">
      <div role="group" aria-label={t('layout.title')} className="flex flex-wrap gap-2">
        {BROADCAST_LAYOUTS.map((layout) => (
          <Button
            key={layout}
            size="sm"
            variant={chosen === layout ? 'primary' : 'secondary'}
            aria-pressed={chosen === layout}
            onClick={() => chosen !== layout && setLayout.mutate(layout)}
          >
            {t(`layout.${layout}`)}
          </Button>
        ))}
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">{t(`layout.hint_${chosen ?? 'auto'}`)}</p>
    </div>
  );
}
