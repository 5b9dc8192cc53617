/** Paths a visitor without a session may open (the route guard). */
export const PUBLIC_PATHS = ['/channel', '/login', '/signup', '/confirm-signup', '/forgot-password', '/reset-password'];

/**
 * The external sign-in callback (`/meetcast-names-login`, ADR 004) is a blank-layout route that
 * a visitor reaches before having a session, so it has to be public as well or the flow could never
 * finish.
 */
export const SIGN_IN_CALLBACK_PATH = '/meetcast-names-login';

function normalize(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

export function isPublicPath(pathname: string): boolean {
  const path = normalize(pathname);
  return (
    PUBLIC_PATHS.includes(path) ||
    path === SIGN_IN_CALLBACK_PATH ||
    path.includes('/room') ||
    path.includes('/channel/') ||
    // The broadcast composer's browser has no session, only the grant in the address's fragment.
    path === '/broadcast-layout' ||
    path.startsWith('/broadcast-layout/')
  );
}

export function isAdminPath(pathname: string): boolean {
  return pathname.includes('/admin');
}

/** Pages a signed-in user has no reason to see; they go to the home page instead. */
export const SIGNED_OUT_ONLY_PATHS = ['/login', '/signup', '/confirm-signup', '/forgot-password', '/reset-password'];
