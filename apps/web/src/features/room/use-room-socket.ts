import {
  ROOM_EVENT,
  ROOM_MESSAGE,
  ROOM_NAMESPACE,
  ROOM_PROTOCOL_VERSION,
  RoomAckSchema,
  RoomErrorReasonSchema,
  RoomServerEventSchema,
  type RoomAck,
  type RoomClientMessage,
} from '@meetcast/contracts';
import { useCallback, useEffect, useReducer, useRef, type Dispatch } from 'react';
import { io, type Socket } from 'socket.io-client';
import { roomConnectionMayOpen } from './media/early-media';
import { initialRoomState, roomReducer, type RoomAction } from './room-state';

/**
 * The room's Socket.IO connection, opened with the join grant. It reconnects by itself; a lobby
 * participant who is admitted reconnects once to enter. Every event is validated before use.
 */
export function useRoomSocket(grant: string | undefined, isChatOpen: boolean) {
  const [state, dispatch] = useReducer(roomReducer, initialRoomState);
  const socketRef = useRef<Socket | undefined>(undefined);
  const chatOpenRef = useRef(isChatOpen);
  useEffect(() => {
    chatOpenRef.current = isChatOpen;
  }, [isChatOpen]);

  useEffect(() => {
    if (!grant) return undefined;
    let socket: Socket | undefined;
    let isClosed = false;
    // Made only when it may open, never with `autoConnect: false`: Socket.IO shares one manager per
    // origin, and that option would keep every later socket on it (the viewer chat's) from connecting.
    void roomConnectionMayOpen(grant).then(() => {
      if (isClosed) return;
      socket = openRoomSocket(grant, dispatch, () => chatOpenRef.current);
      socketRef.current = socket;
    });
    return () => {
      isClosed = true;
      socket?.emit(ROOM_MESSAGE, { type: 'room.leave' } satisfies RoomClientMessage);
      socket?.close();
      socketRef.current = undefined;
    };
  }, [grant]);

  const send = useCallback(
    (message: RoomClientMessage) =>
      new Promise<RoomAck>((resolve) => {
        const socket = socketRef.current;
        if (!socket?.connected) return resolve({ ok: false, reason: 'unauthorized' });
        socket.timeout(5000).emit(ROOM_MESSAGE, message, (error: Error | null, answer: unknown) => {
          const parsed = RoomAckSchema.safeParse(answer);
          resolve(error || !parsed.success ? { ok: false, reason: 'invalid_message' } : parsed.data);
        });
      }),
    [],
  );

  return { state, dispatch, send };
}

/** The room's Socket.IO connection with its handlers; events go to the room state's reducer. */
function openRoomSocket(grant: string, dispatch: Dispatch<RoomAction>, isChatOpen: () => boolean) {
  const socket = io(ROOM_NAMESPACE, {
    auth: { grant, protocol: ROOM_PROTOCOL_VERSION },
    transports: ['websocket'],
    reconnectionDelay: 500,
    reconnectionDelayMax: 3000,
  });
  socket.on('connect', () => dispatch({ type: 'socket', isConnected: true }));
  socket.on('disconnect', () => dispatch({ type: 'socket', isConnected: false }));
  socket.on('connect_error', (error) => {
    const reason = RoomErrorReasonSchema.safeParse(error.message);
    // Refusals are final; anything else (network) is retried by Socket.IO itself.
    if (reason.success) {
      dispatch({ type: 'refused', reason: reason.data });
      socket.close();
    }
  });
  socket.on(ROOM_EVENT, (payload: unknown) => {
    const event = RoomServerEventSchema.safeParse(payload);
    if (!event.success) return;
    dispatch({ type: 'server', event: event.data, isChatOpen: isChatOpen() });
    if (event.data.type === 'lobby.admitted') {
      socket.disconnect();
      socket.connect();
    }
  });
  return socket;
}
