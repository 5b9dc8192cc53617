import { REALTIME_PROTOCOL_VERSION, RealtimeErrorReasonSchema, USER_EVENT, UserEventSchema } from '@meetcast/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { io } from 'socket.io-client';
import { clearSessionCookies } from '../../lib/session-cookie';
import { addNotification, NOTIFICATIONS_KEY } from './use-notifications';

const RELOADED_FLAG = 'meetcastProtocolReload';

/**
 * The signed-in user's live channel (Socket.IO, default namespace): new notifications join the list
 * at once; a revoked session signs this tab out. Messages are validated, never trusted as they come.
 */
export function useUserEvents(token: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const socket = io({
      path: '/socket.io/',
      auth: { token, protocol: REALTIME_PROTOCOL_VERSION },
      transports: ['websocket', 'polling'],
    });
    socket.on(USER_EVENT, (payload: unknown) => {
      const event = UserEventSchema.safeParse(payload);
      if (!event.success) return;
      if (event.data.type === 'notification.created') addNotification(queryClient, event.data.notification);
      if (event.data.type === 'session.revoked') {
        clearSessionCookies();
        window.location.reload();
      }
    });
    // Events sent before this connection (the first one, as the page loads, or a reconnect) reached
    // no socket: read the list again each time it connects.
    socket.on('connect', () => void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }));
    socket.on('connect_error', (error) => {
      // A newer server speaks another protocol: one reload fetches the matching app.
      const reason = RealtimeErrorReasonSchema.safeParse(error.message).data;
      if (reason !== 'protocol_mismatch' || sessionStorage.getItem(RELOADED_FLAG)) return;
      sessionStorage.setItem(RELOADED_FLAG, '1');
      window.location.reload();
    });
    return () => {
      socket.disconnect();
    };
  }, [token, queryClient]);
}
