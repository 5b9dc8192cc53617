import {
  MessageBodySchema,
  RecordingListBodySchema,
  StartStreamConnectionBodySchema,
  StreamConnectionBodySchema,
  StreamConnectionListBodySchema,
  type OAuthStreamPlatform,
} from '@meetcast/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../lib/api';
import type { FinishConnectionFields } from './stream-callback';

export const STREAM_CONNECTIONS_KEY = ['stream-connections'] as const;
export const RECORDINGS_KEY = ['recordings'] as const;

/** The account's YouTube, Twitch and RTMP connections (never their tokens or keys). */
export function useStreamConnections() {
  return useQuery({
    queryKey: STREAM_CONNECTIONS_KEY,
    queryFn: async ({ signal }) =>
      (await apiPost('get-stream-connections.php', {}, { schema: StreamConnectionListBodySchema, signal })).data.data,
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
    queryFn: async ({ signal }) =>
      (await apiPost('get-recordings.php', {}, { schema: RecordingListBodySchema, signal })).data.data,
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
  start: (platform: OAuthStreamPlatform) =>
    apiPost('start-stream-connection.php', { platform }, { schema: StartStreamConnectionBodySchema }),
  finish: (fields: FinishConnectionFields) =>
    apiPost('finish-stream-connection.php', { ...fields }, { schema: StreamConnectionBodySchema }),
  addRtmp: (values: RtmpDestinationValues) =>
    apiPost('add-rtmp-destination.php', { ...values }, { schema: StreamConnectionBodySchema }),
  editRtmp: (values: RtmpDestinationEdit) =>
    apiPost('edit-rtmp-destination.php', { ...values }, { schema: StreamConnectionBodySchema }),
  testRtmp: (id: number) => apiPost('test-rtmp-destination.php', { id }, { schema: StreamConnectionBodySchema }),
  remove: (id: number) => apiPost('remove-stream-connection.php', { id }, { schema: MessageBodySchema }),
};
