import type { AdminExportTable } from '@meetcast/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { cn } from '../../lib/cn';
import { downloadExport, type ExportFilters } from './admin-api';

type Tone = 'green' | 'red' | 'amber' | 'blue' | 'slate' | 'violet';

const TONES: Record<Tone, string> = {
  green:
    'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-400/30',
  red: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-400/30',
  amber: 'bg-amber-50 text-amber-900 ring-amber-600/20 dark:bg-amber-500/10 dark:text-amber-200 dark:ring-amber-400/30',
  blue: 'bg-sky-50 text-sky-800 ring-sky-600/20 dark:bg-sky-500/10 dark:text-sky-300 dark:ring-sky-400/30',
  violet:
    'bg-violet-50 text-violet-800 ring-violet-600/20 dark:bg-violet-500/10 dark:text-violet-300 dark:ring-violet-400/30',
  slate:
    'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-700/40 dark:text-slate-300 dark:ring-slate-400/30',
};

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        TONES[tone],
      )}
    >
      {children}
    </span>
  );
}

export const STATUS_TONES: Record<string, Tone> = {
  active: 'green',
  disabled: 'red',
  pending: 'amber',
  scheduled: 'blue',
  live: 'red',
  ended: 'slate',
  cancelled: 'slate',
  new: 'amber',
  read: 'blue',
  answered: 'green',
};

export interface PendingConfirmation {
  title: string;
  text: ReactNode;
  confirmLabel: string;
  isDanger?: boolean;
  onConfirm: () => Promise<unknown>;
}

/** Asks before a change; the dialog stays open (busy) until the server answered. */
export function ConfirmDialog({ pending, onClose }: { pending: PendingConfirmation | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [isBusy, setIsBusy] = useState(false);
  const confirm = async () => {
    if (!pending) return;
    setIsBusy(true);
    try {
      await pending.onConfirm();
      onClose();
    } catch {
      // The error toast came from the mutation; the dialog stays for another try or Cancel.
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Dialog
      open={pending !== null}
      onOpenChange={(open) => !open && !isBusy && onClose()}
      title={pending?.title ?? ''}
      description={pending?.text}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isBusy}>
            {t('actions.cancel')}
          </Button>
          <Button variant={pending?.isDanger ? 'danger' : 'primary'} onClick={() => void confirm()} isLoading={isBusy}>
            {pending?.confirmLabel}
          </Button>
        </>
      }
    />
  );
}

/** A confirmation state and its dialog, for a page that asks before several kinds of change. */
export function useConfirmation() {
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  return {
    ask: setPending,
    dialog: <ConfirmDialog pending={pending} onClose={() => setPending(null)} />,
  };
}

export function ExportButton({ table, fields }: { table: AdminExportTable; fields?: ExportFilters }) {
  const { t } = useTranslation('admin');
  const [isBusy, setIsBusy] = useState(false);
  const onExport = async () => {
    setIsBusy(true);
    try {
      await downloadExport(table, fields);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Button variant="secondary" onClick={() => void onExport()} isLoading={isBusy}>
      {t('actions.export_csv')}
    </Button>
  );
}

/** Small buttons at the end of a row. */
export function RowButton({
  onClick,
  children,
  isDanger,
  label,
}: {
  onClick: () => void;
  children: ReactNode;
  isDanger?: boolean;
  /** A fuller name for screen readers ("Delete Ann"). */
  label?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className={cn(
        'rounded-md px-2 py-1 text-xs font-semibold whitespace-nowrap focus-visible:outline-2 focus-visible:outline-primary-500',
        isDanger
          ? 'text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-500/10'
          : 'text-primary-700 hover:bg-primary-50 dark:text-primary-300 dark:hover:bg-primary-500/10',
      )}
    >
      {children}
    </button>
  );
}

/** Name and e-mail of a person in one cell. */
export function PersonCell({ name, email }: { name: string; email: string }) {
  return (
    <span className="block min-w-0">
      <span dir="auto" className="block truncate font-medium text-slate-900 dark:text-white">
        {name}
      </span>
      <span dir="auto" className="block truncate text-xs text-slate-600 dark:text-slate-400">
        {email}
      </span>
    </span>
  );
}
