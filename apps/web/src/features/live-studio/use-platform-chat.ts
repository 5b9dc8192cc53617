import {
  BROADCAST_EVENTS_NAMESPACE,
  BROADCAST_EVENTS_PROTOCOL_VERSION,
  PLATFORM_CHAT_EVENT,
  PLATFORM_CHAT_LIMITS,
  PlatformChatEventSchema,
  streamingCalls,
  type PlatformChatMessage,
} from '@meetcast/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { io } from 'socket.io-client';
import { api } from '../../lib/api';
import { readSessionToken } from '../../lib/session-cookie';

export const platformChatKey = (meetId: string) => ['platform-chat', meetId] as const;

/**
 * The YouTube and Twitch chat of a running broadcast (ADR 040): read once, then each message the
 * server pushes on /broadcast-events (to the meeting's managers only) is added; read again after a
 * reconnection. No polling.
 */
export function usePlatformChat(meetId: string, isLive: boolean) {
  const queryClient = useQueryClient();
  const key = platformChatKey(meetId);
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await api.call(streamingCalls.getPlatformChat, { meetId }, { signal })).data.data,
    enabled: isLive,
    retry: false,
    meta: { silent: true },
  });
  useEffect(() => {
    if (!isLive) return undefined;
    const chatKey = platformChatKey(meetId);
    const socket = io(BROADCAST_EVENTS_NAMESPACE, {
      path: '/socket.io/',
      auth: { protocol: BROADCAST_EVENTS_PROTOCOL_VERSION, meetId, token: readSessionToken() },
      transports: ['websocket', 'polling'],
    });
    let hasConnected = false;
    socket.on('connect', () => {
      if (hasConnected) void queryClient.invalidateQueries({ queryKey: chatKey });
      hasConnected = true;
    });
    socket.on(PLATFORM_CHAT_EVENT, (payload: unknown) => {
      const parsed = PlatformChatEventSchema.safeParse(payload);
      if (!parsed.success) return;
      const { message } = parsed.data;
      queryClient.setQueryData<PlatformChatMessage[]>(chatKey, (current = []) =>
        current.some((entry) => entry.platform === message.platform && entry.id === message.id)
          ? current
          : [...current, message].slice(-PLATFORM_CHAT_LIMITS.history),
      );
    });
    return () => {
      socket.close();
    };
  }, [isLive, meetId, queryClient]);
  return query;
}
