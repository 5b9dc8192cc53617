import { accountCalls, type User } from '@meetcast/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../../lib/api';
import { clearSessionCookies, readSessionToken, storeSessionToken } from '../../lib/session-cookie';
import { SessionContext, type SessionApi, type SessionState } from './session-context';

function initialState(): SessionState {
  return readSessionToken() ? { status: 'loading' } : { status: 'signed-out' };
}

/**
 * Spec section 4: the cookie is read at start; without it the visitor is signed out. With it the token is
 * verified; an error status or a missing user removes the cookie and reloads the page.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>(initialState);
  const [attempt, setAttempt] = useState(0);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    const token = readSessionToken();
    if (!token) return;
    const controller = new AbortController();
    api.call(accountCalls.tokenverify, { token }, { signal: controller.signal }).then(
      (body) => setState({ status: 'signed-in', token, user: body.data.data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const isUnreachable = error instanceof ApiError && (error.isNetworkError || error.httpStatus >= 500);
        if (isUnreachable) {
          setState({ status: 'unreachable', message: error.message });
          return;
        }
        clearSessionCookies();
        window.location.reload();
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const signIn = useCallback((token: string, user: User) => {
    storeSessionToken(token);
    setState({ status: 'signed-in', token, user });
  }, []);

  const signOut = useCallback(async () => {
    const token = readSessionToken();
    if (token) await api.call(accountCalls.logout, { token }).catch(() => undefined);
    clearSessionCookies();
    queryClient.clear();
    setState({ status: 'signed-out' });
    void navigate('/login', { replace: true });
  }, [navigate, queryClient]);

  const updateUser = useCallback((user: User) => {
    setState((current) => (current.status === 'signed-in' ? { ...current, user } : current));
  }, []);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((value) => value + 1);
  }, []);

  const session = useMemo<SessionApi>(
    () => ({ state, signIn, signOut, updateUser, retry }),
    [state, signIn, signOut, updateUser, retry],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
