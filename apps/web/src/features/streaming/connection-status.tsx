import type { StreamConnection } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';

const STATUS_CLASSES: Record<StreamConnection['status'], string> = {
  connected: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-500/15 dark:text-emerald-300',
  expired: 'bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300',
  revoked: 'bg-red-100 text-red-900 dark:bg-red-500/15 dark:text-red-300',
};

/** Whether a connection can be streamed to, as a word on a coloured pill (never colour alone). */
export function ConnectionStatus({ status }: { status: StreamConnection['status'] }) {
  const { t } = useTranslation('streaming');
  return (
    <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', STATUS_CLASSES[status])}>
      {t(`status.${status}`)}
    </span>
  );
}
