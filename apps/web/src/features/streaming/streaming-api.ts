import { streamingCalls, type OAuthStreamPlatform } from '@meetcast/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { FinishConnectionFields } from './stream-callback';

export const STREAM_CONNECTIONS_KEY = ['stream-connections'] as const;
export const RECORDINGS_KEY = ['recordings'] as const;

/** The account's YouTube, Twitch and RTMP connections (never their tokens or keys). */
export function useStreamConnections() {
  return useQuery({
    queryKey: STREAM_CONNECTIONS_KEY,
    queryFn: async ({ signal }) => (await api.call(streamingCalls.getStreamConnections, {}, { signal })).data.data,
    // A connection made in another tab (the Live panel links there) shows when the host comes back.
    refetchOnWindowFocus: true,
  });
}

export function useRefreshStreamConnections() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: STREAM_CONNECTIONS_KEY });
}

/** The account's recorded broadcasts and meetings; lists that merely add a button stay quiet on failure. */
export function useRecordings(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: RECORDINGS_KEY,
    queryFn: async ({ signal }) => (await api.call(streamingCalls.getRecordings, {}, { signal })).data.data,
    enabled: options.enabled ?? true,
    meta: { silent: true },
  });
}

export interface RtmpDestinationValues {
  name: string;
  url: string;
  stream_key: string;
}

/** An empty or missing key keeps the saved one. */
export interface RtmpDestinationEdit extends Omit<RtmpDestinationValues, 'stream_key'> {
  id: number;
  stream_key?: string | undefined;
}

export const streamingApi = {
  /** The provider's consent page to send the browser to. */
  start: (platform: OAuthStreamPlatform) => api.call(streamingCalls.startStreamConnection, { platform }),
  finish: (fields: FinishConnectionFields) => api.call(streamingCalls.finishStreamConnection, { ...fields }),
  addRtmp: (values: RtmpDestinationValues) => api.call(streamingCalls.addRtmpDestination, { ...values }),
  editRtmp: (values: RtmpDestinationEdit) => api.call(streamingCalls.editRtmpDestination, { ...values }),
  testRtmp: (id: number) => api.call(streamingCalls.testRtmpDestination, { id }),
  remove: (id: number) => api.call(streamingCalls.removeStreamConnection, { id }),
};
