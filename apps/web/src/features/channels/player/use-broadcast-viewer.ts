import { streamingCalls, BroadcastViewerSchema, type BroadcastViewer } from '@meetcast/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/api';
import { useBroadcastEvents } from '../../../lib/broadcast-events';
import { PAGE_DATA, readPageData } from '../page-data';

/** How often the page asks while its socket is down; pushes carry every change otherwise (ADR 022). */
const FOLLOW_MS = 4000;

/** The viewer state this page's HTML came with, for this meetId, while its grant is fresh. */
const inlinedViewer = (meetId: string) => readPageData(PAGE_DATA.broadcastViewer, meetId, BroadcastViewerSchema);

const broadcastViewerQuery = (meetId: string) => ({
  queryKey: ['broadcast-viewer', meetId],
  queryFn: async ({ signal }: { signal: AbortSignal }): Promise<BroadcastViewer> =>
    (await api.call(streamingCalls.getBroadcastViewer, { meetId }, { signal, withToken: false })).data.data,
  retry: false,
});

/**
 * The broadcast of a public meeting as its channel page plays it: every change is pushed (the event
 * carries the new state); the page asks again only on (re)connecting and polls only while offline.
 */
export function useBroadcastViewer(meetId: string | undefined) {
  const queryClient = useQueryClient();
  const isPushed = useBroadcastEvents(
    meetId,
    (event) => {
      if (!meetId) return;
      if (event?.viewer) queryClient.setQueryData(['broadcast-viewer', meetId], event.viewer);
      else void queryClient.invalidateQueries({ queryKey: ['broadcast-viewer', meetId] });
    },
    { withToken: false },
  );
  return useQuery<BroadcastViewer>({
    ...broadcastViewerQuery(meetId ?? ''),
    // The page's HTML came with it: the player starts without asking (the poll asks soon after).
    initialData: () => (meetId ? inlinedViewer(meetId) : undefined),
    enabled: Boolean(meetId),
    refetchInterval: isPushed ? false : FOLLOW_MS,
    refetchIntervalInBackground: false,
  });
}

/**
 * Asks for the broadcast at the address's meetId while the page asks what the address is: on the
 * page of a broadcast (a shared watch link), the player then starts without waiting for the page's
 * own answer first. On a channel's page the answer is unused (its broadcast has another meetId).
 */
export function usePrefetchBroadcastViewer(meetId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    // A page whose HTML came with the answer has it already (the player's initial data).
    if (meetId && !inlinedViewer(meetId)) void queryClient.prefetchQuery(broadcastViewerQuery(meetId));
  }, [queryClient, meetId]);
}

/**
 * The newest answer for the broadcast a player plays, asked again when the one held has an expired
 * viewer grant (a minute, ADR 011): a player going back to WebRTC after a long rewind or sound-only
 * spell needs a current one.
 */
export function useFreshViewerGrant() {
  const queryClient = useQueryClient();
  return async (held: BroadcastViewer): Promise<BroadcastViewer> => {
    if (!held.webrtc || held.webrtc.expires_at * 1000 > Date.now() + GRANT_MARGIN_MS) return held;
    const query = queryClient
      .getQueryCache()
      .findAll({ queryKey: ['broadcast-viewer'] })
      .find((candidate) => (candidate.state.data as BroadcastViewer | undefined)?.broadcast_id === held.broadcast_id);
    if (!query) return held;
    await queryClient.refetchQueries({ queryKey: query.queryKey, exact: true });
    return queryClient.getQueryData<BroadcastViewer>(query.queryKey) ?? held;
  };
}

/** A grant this close to its end may expire before the proxy reads it. */
const GRANT_MARGIN_MS = 5000;
