import { ROLE } from '@meetcast/contracts';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { PageSpinner } from '../../components/spinner';
import { useCallView } from '../../lib/call-view';
import { showPendingSuccess } from '../../lib/form-toast';
import { returnPathOf } from '../../lib/sign-in-return';
import { useThemeSync } from '../../lib/theme';
import { isAdminPath, isPublicPath, SessionProvider, SIGNED_OUT_ONLY_PATHS, useSession } from '../session';
import { useHideBootLoader } from './boot-loader';
import { ServerUnreachablePage } from './server-unreachable-page';

/** Spec section 4: who may see which path. */
function RouteGuard() {
  const { state } = useSession();
  const { pathname, search } = useLocation();
  const { t } = useTranslation('common');
  useHideBootLoader(state.status !== 'loading');

  if (state.status === 'loading') return null;
  if (state.status === 'unreachable') return <ServerUnreachablePage message={state.message} />;
  if (state.status === 'signed-out' && !isPublicPath(pathname)) return <Navigate to="/login" replace />;
  if (state.status === 'signed-in') {
    if (isAdminPath(pathname) && state.user.role_id !== ROLE.admin) return <Navigate to="/" replace />;
    // The same place the sign-in form sends to: both navigations run at once, so they must agree.
    if (SIGNED_OUT_ONLY_PATHS.includes(pathname)) {
      return <Navigate to={returnPathOf(new URLSearchParams(search).get('next'))} replace />;
    }
  }
  return (
    <Suspense fallback={<PageSpinner label={t('status.loading')} />}>
      <Outlet />
    </Suspense>
  );
}

export function AppRoot() {
  const { i18n } = useTranslation('common');
  useThemeSync();
  useEffect(showPendingSuccess, []);
  // A full-screen call has its panel (with the lobby's Admit buttons) in the top corner where the
  // toasts go, and a lasting knock toast covered it: in a call they come down the middle of the stage.
  const isCallView = useCallView();
  return (
    <SessionProvider>
      <RouteGuard />
      <ToastContainer
        position={isCallView ? 'top-center' : 'top-right'}
        autoClose={5000}
        rtl={i18n.dir() === 'rtl'}
        theme="colored"
        newestOnTop
        closeOnClick
        pauseOnFocusLoss
      />
    </SessionProvider>
  );
}
