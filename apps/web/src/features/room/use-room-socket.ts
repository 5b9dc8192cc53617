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
import { debug } from './media/media-types';
import { initialRoomState, roomReducer, type RoomAction } from './room-state';
import { ROOM_RECONNECT_DELAY_MAX_MS, ROOM_RECONNECT_DELAY_MS, reconnectWhileOnline } from './reconnect-while-offline';

/** A handshake that failed without a named refusal (the server was busy) is tried again after this. */
const HANDSHAKE_RETRY_MS = 2000;

/**
 * The room's Socket.IO connection, opened with the join grant. It reconnects by itself (the server
 * keeps this person's seat through a drop, ADR 032); a lobby participant who is admitted reconnects
 * once to enter. Every event is validated before use.
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
    let stopWatchingNetwork: (() => void) | undefined;
    // Made only when it may open, never with `autoConnect: false`: Socket.IO shares one manager per
    // origin, and that option would keep every later socket on it (the viewer chat's) from connecting.
    void roomConnectionMayOpen(grant).then(() => {
      if (isClosed) return;
      socket = openRoomSocket(
        grant,
        dispatch,
        () => chatOpenRef.current,
        () => isClosed,
      );
      socketRef.current = socket;
      // Offline, no attempts (each would fail and slow the way back); back online, a fresh connection
      // now, instead of the back-off's next step or an attempt begun while the link was down (its
      // handshake would wait out its own timeout).
      const opened = socket;
      stopWatchingNetwork = reconnectWhileOnline(opened.io, window, () => navigator.onLine, () => {
        if (!opened.connected && !isClosed) opened.disconnect().connect();
      });
    });
    // A device that reports itself offline has its transport closed by Engine.IO itself, without a
    // goodbye (a drop: the seat waits); Socket.IO's next tries wait for the network (reconnectWhileOnline).
    // A closed tab says goodbye (the others see it leave); a reload says it too and is back within the leave grace.
    const onPageHide = () => socket?.close();
    window.addEventListener('pagehide', onPageHide);
    return () => {
      isClosed = true;
      window.removeEventListener('pagehide', onPageHide);
      stopWatchingNetwork?.();
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

  /** Rejoin now, not at the next back-off step. */
  const reconnect = useCallback(() => {
    const socket = socketRef.current;
    if (!socket || socket.connected) return;
    socket.disconnect().connect();
  }, []);

  return { state, dispatch, send, reconnect };
}

/** The room's Socket.IO connection with its handlers; events go to the room state's reducer. */
function openRoomSocket(
  grant: string,
  dispatch: Dispatch<RoomAction>,
  isChatOpen: () => boolean,
  /** The call was left: nothing opens the connection again. */
  isClosed: () => boolean,
) {
  const socket = io(ROOM_NAMESPACE, {
    auth: { grant, protocol: ROOM_PROTOCOL_VERSION },
    transports: ['websocket'],
    // Short steps: a dropped participant's seat waits (ADR 032), and every second back counts; a
    // handshake that hangs (begun as the link went down) is given up after a few seconds.
    reconnectionDelay: ROOM_RECONNECT_DELAY_MS,
    reconnectionDelayMax: ROOM_RECONNECT_DELAY_MAX_MS,
    randomizationFactor: 0.2,
    timeout: 5000,
  });
  socket.on('connect', () => {
    debug('room socket connected');
    dispatch({ type: 'socket', isConnected: true });
  });
  socket.on('disconnect', () => dispatch({ type: 'socket', isConnected: false }));
  socket.on('connect_error', (error) => {
    const reason = RoomErrorReasonSchema.safeParse(error.message);
    // Refusals are final; a network failure is retried by Socket.IO itself, a busy server by us
    // (Socket.IO does not retry a handshake the server answered).
    if (reason.success) {
      dispatch({ type: 'refused', reason: reason.data });
      socket.close();
    } else if (!socket.active) {
      setTimeout(() => {
        if (!isClosed() && !socket.active) socket.connect();
      }, HANDSHAKE_RETRY_MS);
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
