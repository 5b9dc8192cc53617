import { MenuIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { usePreference } from '../../lib/preferences';
import { NotificationMenu } from '../notifications';
import { LanguagePicker } from './language-picker';
import { SIDEBAR_ID } from './sidebar';
import { ThemeToggle } from './theme-toggle';
import { UserMenu } from './user-menu';

/** Sidebar toggle, then theme, language, notifications and the user menu. */
export function TopBar({ isSidebarOpen, onToggleSidebar }: { isSidebarOpen: boolean; onToggleSidebar(): void }) {
  const { t } = useTranslation('shell');
  const navbar = usePreference('navbar');
  return (
    <header
      className={cn(
        'z-20 flex h-16 items-center gap-2 border-b border-slate-200 bg-white/85 px-3 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-900/85',
        navbar === 'static' ? 'relative' : 'sticky top-0',
      )}
    >
      <button
        type="button"
        onClick={onToggleSidebar}
        aria-expanded={isSidebarOpen}
        aria-controls={SIDEBAR_ID}
        aria-label={isSidebarOpen ? t('nav.collapse') : t('nav.expand')}
        className="inline-flex size-10 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
      >
        <MenuIcon className="size-5" />
      </button>
      <div className="ms-auto flex items-center gap-1">
        <LanguagePicker className="hidden sm:flex" />
        <ThemeToggle />
        <NotificationMenu />
        <UserMenu />
      </div>
    </header>
  );
}
