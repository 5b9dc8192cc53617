import { SlidersVerticalIcon, XIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceSettings } from './device-settings';
import type { LocalMedia } from './use-local-media';

/**
 * The toolbar's "Audio and video settings": a non-modal panel above the toolbar with the same
 * pickers as the pre-join screen, so devices change without leaving the call. Escape or a click
 * elsewhere closes it and gives focus back to its button.
 */
export function DeviceMenu({ local }: { local: LocalMedia }) {
  const { t } = useTranslation('room');
  const [isOpen, setIsOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const titleId = useId();

  useEffect(() => {
    if (!isOpen) return undefined;
    (panelRef.current?.querySelector('select') ?? panelRef.current?.querySelector('button'))?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setIsOpen(false);
      buttonRef.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setIsOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [isOpen]);

  const label = t('devices.title');
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        title={label}
        aria-expanded={isOpen}
        aria-controls={isOpen ? panelId : undefined}
        aria-haspopup="dialog"
        onClick={() => setIsOpen((open) => !open)}
        className={
          'rounded-full p-3 text-white transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-400 ' +
          (isOpen ? 'bg-primary-600' : 'bg-slate-700 hover:bg-slate-600')
        }
      >
        <SlidersVerticalIcon className="size-5" />
      </button>
      {isOpen && (
        // Positioned against the toolbar (not the button) so it stays on screen at phone width.
        <div
          ref={panelRef}
          id={panelId}
          role="dialog"
          aria-labelledby={titleId}
          className="absolute bottom-full start-1/2 z-20 mb-2 w-80 max-w-[calc(100vw-1rem)] -translate-x-1/2 rounded-xl border border-slate-200 bg-white p-4 text-slate-900 shadow-xl rtl:translate-x-1/2 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        >
          <div className="mb-3 flex items-center justify-between gap-2">
            <h2 id={titleId} className="font-semibold">
              {label}
            </h2>
            <button
              type="button"
              aria-label={t('devices.close')}
              onClick={() => {
                setIsOpen(false);
                buttonRef.current?.focus();
              }}
              className="rounded-full p-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-slate-400 dark:hover:bg-slate-800"
            >
              <XIcon className="size-5" />
            </button>
          </div>
          <DeviceSettings local={local} withLevel />
        </div>
      )}
    </>
  );
}
