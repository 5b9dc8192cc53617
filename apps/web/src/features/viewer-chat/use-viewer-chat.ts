import {
  VIEWER_CHAT_EVENT,
  VIEWER_CHAT_LIMITS,
  VIEWER_CHAT_NAMESPACE,
  VIEWER_CHAT_PROTOCOL_VERSION,
  ViewerChatEventSchema,
  type ViewerChatEvent,
  type ViewerChatState,
} from '@meetcast/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { io } from 'socket.io-client';
import { readSessionToken } from '../../lib/session-cookie';
import { fetchViewerChat, viewerChatKey, type ChatCredentials } from './viewer-chat-api';

/** The chat's state for an event the server pushed; undefined asks for a fresh copy instead. */
function applyEvent(state: ViewerChatState, event: ViewerChatEvent): ViewerChatState | undefined {
  if (event.type === 'self.restricted') return { ...state, self: { ...state.self, ...event } };
  if (event.broadcast_id !== state.broadcast_id) return undefined;
  switch (event.type) {
    case 'message.created':
      if (state.messages.some((message) => message.id === event.message.id)) return state;
      return { ...state, messages: [...state.messages, event.message].slice(-VIEWER_CHAT_LIMITS.liveHistory) };
    case 'message.deleted':
      return {
        ...state,
        messages: state.messages.filter((message) => message.id !== event.id),
        pinned: state.pinned?.id === event.id ? null : state.pinned,
      };
    case 'pinned.changed':
      return { ...state, pinned: event.message };
    case 'slow_mode.changed':
      return { ...state, slow_mode_seconds: event.seconds };
  }
}

/**
 * A meeting's viewer chat: read once over HTTP, then kept current by the `/viewer-chat` namespace
 * (read again after a reconnection, and every 30 s for the broadcast's own state). A guest's socket
 * carries their identity once they have one, so a ban reaches them at once.
 */
export function useViewerChat(credentials: ChatCredentials, viewerToken: string | undefined) {
  const queryClient = useQueryClient();
  const key = viewerChatKey(credentials.meetId);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchViewerChat(credentials, signal),
    refetchInterval: 30_000,
    retry: 1,
  });
  const { meetId, grant } = credentials;
  const isAvailable = query.isSuccess;

  useEffect(() => {
    if (!isAvailable) return undefined;
    const chatKey = viewerChatKey(meetId);
    const socket = io(VIEWER_CHAT_NAMESPACE, {
      auth: {
        protocol: VIEWER_CHAT_PROTOCOL_VERSION,
        meetId,
        token: readSessionToken(),
        grant,
        viewer_token: viewerToken,
      },
      transports: ['websocket'],
      reconnectionDelay: 1000,
      reconnectionDelayMax: 10_000,
    });
    let hasConnected = false;
    socket.on('connect', () => {
      // Messages sent while the connection was down are fetched again.
      if (hasConnected) void queryClient.invalidateQueries({ queryKey: chatKey });
      hasConnected = true;
    });
    socket.on(VIEWER_CHAT_EVENT, (payload: unknown) => {
      const parsed = ViewerChatEventSchema.safeParse(payload);
      if (!parsed.success) return;
      const current = queryClient.getQueryData<ViewerChatState | null>(chatKey);
      const next = current ? applyEvent(current, parsed.data) : undefined;
      if (next) queryClient.setQueryData(chatKey, next);
      else void queryClient.invalidateQueries({ queryKey: chatKey });
    });
    return () => {
      socket.close();
    };
  }, [isAvailable, meetId, grant, viewerToken, queryClient]);

  return query;
}
