import { Outlet } from 'react-router';
import { useCallView } from '../../lib/call-view';
import { Brand } from './brand';
import { LanguagePicker } from './language-picker';
import { ThemeToggle } from './theme-toggle';

/** No sidebar: the account pages, the public channel pages, and every page without a session. */
export function BlankLayout() {
  // A guest's call fills the screen as a signed-in person's does (shell-frame.tsx).
  const isCallView = useCallView();
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-primary-50/70 to-transparent dark:from-primary-950/40">
      {!isCallView && (
        <header className="flex items-center justify-between gap-4 px-4 py-4 sm:px-8">
          <Brand />
          <div className="flex items-center gap-1">
            <LanguagePicker />
            <ThemeToggle />
          </div>
        </header>
      )}
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
    </div>
  );
}
