import type { User } from '@meetcast/contracts';
import { createContext, useContext } from 'react';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'unreachable'; message: string }
  | { status: 'signed-in'; token: string; user: User };

export interface SessionApi {
  state: SessionState;
  /** Stores the token in the session cookie and the user in memory. */
  signIn(token: string, user: User): void;
  /** Revokes the token on the server, clears the session cookies and goes to /login. */
  signOut(): Promise<void>;
  /** Replaces the stored user (after a profile change, for example). */
  updateUser(user: User): void;
  /** Verifies the cookie's token again (used after the server could not be reached). */
  retry(): void;
}

export const SessionContext = createContext<SessionApi | null>(null);

export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider');
  return session;
}

/** The signed-in user, or undefined. */
export function useCurrentUser(): User | undefined {
  const { state } = useSession();
  return state.status === 'signed-in' ? state.user : undefined;
}
