import { XIcon } from 'lucide-react';
import { ROLE } from '@meetcast/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { cn } from '../../lib/cn';
import { useMeetingDialogs } from '../meetings';
import { useCurrentUser } from '../session';
import { Brand } from './brand';
import type { NavEntry } from './navigation';

export const SIDEBAR_ID = 'app-sidebar';

const ENTRY_CLASSES =
  'group flex w-full items-center gap-3 rounded-lg px-3 py-2 text-start text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-primary-500';
const IDLE_CLASSES =
  'text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';
const ACTIVE_CLASSES =
  'bg-primary-50 text-primary-800 dark:bg-primary-500/15 dark:text-primary-200 [&_svg]:text-primary-700 dark:[&_svg]:text-primary-300';

interface SidebarProps {
  entries: NavEntry[];
  isOpen: boolean;
  isOverlay: boolean;
  onClose(): void;
  /** Shown above the entries (e.g. "Administration"). */
  heading?: string;
  homePath?: string;
}

/** 260 px navigation at the start edge (right in Arabic), collapsible, floating below 1024 px. */
export function Sidebar({ entries, isOpen, isOverlay, onClose, heading, homePath = '/' }: SidebarProps) {
  const { t } = useTranslation('shell');
  const user = useCurrentUser();
  const dialogs = useMeetingDialogs();
  const panel = useRef<HTMLElement>(null);
  const isAdmin = user?.role_id === ROLE.admin;
  const { pathname } = useLocation();

  useEffect(() => {
    if (!isOverlay || !isOpen) return;
    panel.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isOverlay, isOpen, onClose]);

  return (
    <>
      {isOverlay && isOpen && (
        <div aria-hidden="true" onClick={onClose} className="fixed inset-0 z-30 animate-fade-in bg-slate-950/50" />
      )}
      <nav
        ref={panel}
        id={SIDEBAR_ID}
        aria-label={t('nav.label')}
        data-state={isOpen ? 'open' : 'closed'}
        className={cn(
          'fixed inset-y-0 start-0 z-40 flex w-[260px] flex-col border-e border-slate-200 bg-white transition-[translate,visibility] duration-300 dark:border-slate-800 dark:bg-slate-900',
          isOpen ? 'visible translate-x-0' : 'invisible -translate-x-full rtl:translate-x-full',
        )}
      >
        <div className="flex h-16 shrink-0 items-center justify-between gap-2 px-5">
          <Brand to={homePath} />
          {isOverlay && (
            <button
              type="button"
              onClick={onClose}
              aria-label={t('nav.close')}
              className="inline-flex size-9 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-slate-400 dark:hover:bg-slate-800"
            >
              <XIcon className="size-5" />
            </button>
          )}
        </div>
        <div className="flex-1 overflow-y-auto px-3 pt-2 pb-6">
          {heading && (
            <p className="px-3 pb-2 text-xs font-semibold tracking-wider text-slate-600 uppercase dark:text-slate-400">
              {heading}
            </p>
          )}
          <ul className="space-y-1">
            {entries
              .filter((entry) => entry.kind !== 'link' || !entry.isAdminOnly || isAdmin)
              .map((entry) => {
                const Icon = entry.icon;
                const content = (
                  <>
                    <Icon className="size-5 shrink-0 text-slate-500 group-hover:text-current dark:text-slate-400" />
                    <span className="truncate">{t(entry.label)}</span>
                  </>
                );
                return (
                  <li key={entry.id}>
                    {entry.kind === 'link' ? (
                      <NavLink
                        to={entry.to}
                        end={entry.end}
                        data-nav={entry.id}
                        className={({ isActive }) =>
                          cn(
                            ENTRY_CLASSES,
                            isActive || entry.activeOn?.includes(pathname) ? ACTIVE_CLASSES : IDLE_CLASSES,
                          )
                        }
                      >
                        {content}
                      </NavLink>
                    ) : (
                      <button
                        type="button"
                        data-nav={entry.id}
                        aria-haspopup="dialog"
                        onClick={() => {
                          if (isOverlay) onClose();
                          dialogs.open(entry.dialog);
                        }}
                        className={cn(ENTRY_CLASSES, IDLE_CLASSES)}
                      >
                        {content}
                      </button>
                    )}
                  </li>
                );
              })}
          </ul>
        </div>
      </nav>
    </>
  );
}
