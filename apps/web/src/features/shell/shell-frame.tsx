import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../../components/spinner';
import { useCallView } from '../../lib/call-view';
import { cn } from '../../lib/cn';
import { usePreference } from '../../lib/preferences';
import { MeetingDialogsProvider } from '../meetings';
import { useUserEvents } from '../notifications';
import type { NavEntry } from './navigation';
import { ScrollToTop } from './scroll-to-top';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import { useSidebar } from './use-sidebar';

interface ShellFrameProps {
  token: string;
  navigation: NavEntry[];
  sidebarHeading?: string;
  homePath?: string;
}

/** What the main and admin layouts share: sidebar, top bar, live events, the page, scroll-to-top. */
export function ShellFrame({ token, navigation, sidebarHeading, homePath }: ShellFrameProps) {
  const { t } = useTranslation('shell');
  const sidebar = useSidebar();
  const { pathname } = useLocation();
  // The room marks its call stage as the page's main content itself (features/room/in-call.tsx);
  // a <main> here as well would put one main inside another.
  const isRoom = pathname.startsWith('/room/');
  const MainElement = isRoom ? 'div' : 'main';
  // A call fills the screen: no sidebar, no top bar, no margins (the pre-join screen keeps them).
  const isCallView = useCallView() && isRoom;
  const layout = usePreference('layout');
  const animation = usePreference('animation');
  useUserEvents(token);

  return (
    <MeetingDialogsProvider>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:start-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:shadow-lg dark:focus:bg-slate-900"
      >
        {t('skip_to_content')}
      </a>
      {!isCallView && (
        <Sidebar
          entries={navigation}
          isOpen={sidebar.isOpen}
          isOverlay={sidebar.isOverlay}
          onClose={() => sidebar.setOpen(false)}
          heading={sidebarHeading}
          homePath={homePath}
        />
      )}
      <div
        className={cn(
          'flex min-h-screen flex-col transition-[padding] duration-300',
          sidebar.isOpen && !sidebar.isOverlay && !isCallView && 'lg:ps-[260px]',
        )}
      >
        {!isCallView && <TopBar isSidebarOpen={sidebar.isOpen} onToggleSidebar={sidebar.toggle} />}
        <MainElement
          id="main"
          tabIndex={-1}
          className={cn(
            'flex-1 focus:outline-none',
            !isCallView && 'px-4 pt-6 sm:px-8 sm:pt-8',
            // Room for the scroll-to-top button below the last row (a list's "Next" sat under it).
            isCallView ? '' : isRoom ? 'pb-6 sm:pb-8' : 'pb-20',
          )}
        >
          <div
            key={pathname}
            className={cn(
              layout === 'boxed' && !isCallView && 'mx-auto max-w-6xl',
              animation === 'fade-in-left' ? 'animate-fade-in-left' : animation !== 'none' && 'animate-fade-in',
            )}
          >
            <Suspense fallback={<PageSpinner label={t('loading_page')} />}>
              <Outlet />
            </Suspense>
          </div>
        </MainElement>
      </div>
      <ScrollToTop />
    </MeetingDialogsProvider>
  );
}
