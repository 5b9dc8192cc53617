import { XIcon } from 'lucide-react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../lib/cn';
import { Button } from './button';

export interface DialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
  /**
   * Something was typed that closing would lose: Escape, the close button, a click outside and
   * `DialogClose` buttons then ask before closing.
   */
  isDirty?: boolean;
}

/**
 * A modal dialog (Radix): focus is trapped inside and returns to the opener on close; Escape closes.
 * The body scrolls between the fixed title and footer, so actions stay on screen however long it is.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  className,
  isDirty = false,
}: DialogProps) {
  const { t, i18n } = useTranslation('common');
  // The element that had focus when the dialog opened (a sidebar entry, a button): focus goes back
  // to it on close, also when the dialog was opened without a Radix trigger.
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  const [wasOpen, setWasOpen] = useState(open);
  const [isAskingToDiscard, setIsAskingToDiscard] = useState(false);
  const [isBodyScrolling, setIsBodyScrolling] = useState(false);
  // The body scrolls only when its content is taller than the room it has; otherwise it leaves
  // overflow visible, so a date picker's calendar may reach past the dialog instead of being cut off.
  const watchBody = useCallback((body: HTMLDivElement | null) => {
    const content = body?.firstElementChild;
    if (!body || !(content instanceof HTMLElement)) return;
    const check = () => setIsBodyScrolling(content.offsetHeight > body.clientHeight + 1);
    const observer = new ResizeObserver(check);
    observer.observe(body);
    observer.observe(content);
    check();
    return () => observer.disconnect();
  }, []);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setOpener(document.activeElement instanceof HTMLElement ? document.activeElement : null);
  }
  const requestOpenChange = (next: boolean) => {
    if (!next && isDirty) setIsAskingToDiscard(true);
    else onOpenChange(next);
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={requestOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 animate-fade-in bg-slate-950/60 backdrop-blur-sm" />
        <RadixDialog.Content
          dir={i18n.dir()}
          {...(description ? {} : { 'aria-describedby': undefined })}
          onCloseAutoFocus={(event) => {
            if (!opener?.isConnected) return;
            event.preventDefault();
            opener.focus();
          }}
          onEscapeKeyDown={(event) => {
            // The question listens for Escape only from its first effect on: an Escape pressed as it
            // appears reaches this dialog instead, and means what it means there: back to editing.
            if (!isAskingToDiscard) return;
            event.preventDefault();
            setIsAskingToDiscard(false);
          }}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[90dvh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 animate-fade-in flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-2xl focus:outline-none dark:border-slate-700 dark:bg-slate-900',
            className,
          )}
        >
          <div className="flex shrink-0 items-start justify-between gap-4">
            <div>
              <RadixDialog.Title className="text-lg font-semibold text-slate-900 dark:text-white">
                {title}
              </RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                  {description}
                </RadixDialog.Description>
              ) : null}
            </div>
            <RadixDialog.Close
              aria-label={t('actions.close')}
              className="-m-1 inline-flex size-9 shrink-0 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
            >
              <XIcon className="size-5" />
            </RadixDialog.Close>
          </div>
          {/* The padding keeps focus rings inside the scrolling area. */}
          {children && (
            <div
              ref={watchBody}
              className={cn('-mx-6 mt-4 min-h-0 px-6 pt-1', isBodyScrolling ? 'overflow-y-auto' : 'overflow-visible')}
            >
              <div>{children}</div>
            </div>
          )}
          {footer && <div className="mt-6 flex shrink-0 flex-wrap justify-end gap-2">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
      {isAskingToDiscard && (
        <DiscardQuestion
          onKeep={() => setIsAskingToDiscard(false)}
          onDiscard={() => {
            setIsAskingToDiscard(false);
            onOpenChange(false);
          }}
        />
      )}
    </RadixDialog.Root>
  );
}

/** A button that closes the dialog it is in, asking first when the dialog has typed content. */
export function DialogClose({ children }: { children: ReactNode }) {
  return (
    <RadixDialog.Close asChild>
      <Button variant="secondary">{children}</Button>
    </RadixDialog.Close>
  );
}

/** "Discard what you typed?" over the dialog; Escape or Keep editing goes back to it. */
function DiscardQuestion({ onKeep, onDiscard }: { onKeep(): void; onDiscard(): void }) {
  const { t, i18n } = useTranslation('common');
  return (
    <RadixDialog.Root open onOpenChange={(isOpen) => !isOpen && onKeep()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/40" />
        <RadixDialog.Content
          role="alertdialog"
          dir={i18n.dir()}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 bg-white p-6 shadow-2xl focus:outline-none dark:border-slate-700 dark:bg-slate-900"
        >
          <RadixDialog.Title className="text-lg font-semibold text-slate-900 dark:text-white">
            {t('discard.title')}
          </RadixDialog.Title>
          <RadixDialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {t('discard.text')}
          </RadixDialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onKeep} autoFocus>
              {t('discard.keep')}
            </Button>
            <Button variant="danger" onClick={onDiscard}>
              {t('discard.confirm')}
            </Button>
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
