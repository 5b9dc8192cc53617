import { BroadcastViewerBodySchema, type BroadcastViewer } from '@meetcast/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';

/** How often the page asks: it follows starting → live → ended without a reload. */
const FOLLOW_MS = 4000;

/** The broadcast of a public meeting as its channel page plays it; polled while the page is open. */
export function useBroadcastViewer(meetId: string | undefined) {
  return useQuery<BroadcastViewer>({
    queryKey: ['broadcast-viewer', meetId],
    enabled: Boolean(meetId),
    queryFn: async ({ signal }) =>
      (
        await apiPost(
          'get-broadcast-viewer.php',
          { meetId: meetId ?? '' },
          { schema: BroadcastViewerBodySchema, signal, withToken: false },
        )
      ).data.data,
    refetchInterval: FOLLOW_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
}
