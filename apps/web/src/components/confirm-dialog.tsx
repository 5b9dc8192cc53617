import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { Dialog } from './dialog';

/** A yes/no question before something that cannot be undone. */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  cancelLabel,
  isBusy,
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  /** Defaults to "Keep it", which suits deleting a thing; an action on a person reads better as "Cancel". */
  cancelLabel?: string;
  isBusy?: boolean;
  onConfirm(): void;
  onCancel(): void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <Dialog
      open={open}
      onOpenChange={(isOpen) => !isOpen && onCancel()}
      title={title}
      description={text}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {cancelLabel ?? t('actions.keep')}
          </Button>
          <Button variant="danger" onClick={onConfirm} isLoading={isBusy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
