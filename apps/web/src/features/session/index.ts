// What other features may use of the session feature; the rest of the folder is private.
export { useCurrentUser, useSession, type SessionApi, type SessionState } from './session-context';
export { SessionProvider } from './session-provider';
export { isAdminPath, isPublicPath, SIGNED_OUT_ONLY_PATHS } from './public-paths';
