import {
  BROADCAST_EVENT,
  BROADCAST_EVENTS_NAMESPACE,
  BROADCAST_EVENTS_PROTOCOL_VERSION,
  BroadcastEventSchema,
  type BroadcastEvent,
} from '@meetcast/contracts';
import { useEffect, useRef, useState } from 'react';
import { io } from 'socket.io-client';
import { readSessionToken } from './session-cookie';

/**
 * Push, don't poll (ADR 022): hears every change of one meeting's broadcast. `onChange` gets each
 * validated event, and `null` on every (re)connection, when changes may have been missed: read again
 * then. Answers whether the socket is connected: a page polls slowly only while it is not.
 */
export function useBroadcastEvents(
  meetId: string | undefined,
  onChange: (event: BroadcastEvent | null) => void,
  options: { grant?: string; withToken?: boolean } = {},
): boolean {
  const [isConnected, setConnected] = useState(false);
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  const { grant, withToken = true } = options;
  useEffect(() => {
    if (!meetId) return;
    const token = withToken ? readSessionToken() : undefined;
    const socket = io(BROADCAST_EVENTS_NAMESPACE, {
      path: '/socket.io/',
      auth: {
        protocol: BROADCAST_EVENTS_PROTOCOL_VERSION,
        meetId,
        ...(token ? { token } : {}),
        ...(grant ? { grant } : {}),
      },
      transports: ['websocket', 'polling'],
    });
    socket.on(BROADCAST_EVENT, (payload: unknown) => {
      const event = BroadcastEventSchema.safeParse(payload);
      if (event.success) latest.current(event.data);
    });
    socket.on('connect', () => {
      setConnected(true);
      latest.current(null);
    });
    socket.on('disconnect', () => setConnected(false));
    return () => {
      socket.disconnect();
      setConnected(false);
    };
  }, [meetId, grant, withToken]);
  return isConnected;
}
