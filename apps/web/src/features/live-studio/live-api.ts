import {
  streamingCalls,
  type BroadcastLayout,
  type DestinationRequest,
  type LiveBroadcast,
  type OverlayImageChoice,
} from '@meetcast/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type WebCallInput } from '../../lib/api';
import { useBroadcastEvents } from '../../lib/broadcast-events';
import { toSceneRequest, type SceneFormValues } from './scene-request';

/** How often a room asks for the broadcast's state while its socket is down (pushed otherwise, ADR 022). */
const POLL_MS = 3000;
/** While the call fails (the server is unreachable), ask less often. */
const POLL_AFTER_ERROR_MS = 15_000;

export const liveBroadcastKey = (meetId: string) => ['live-broadcast', meetId] as const;

/**
 * A meeting's broadcast (null before the first one) while `enabled`: asked again at each pushed change
 * and each (re)connection, every 3 s only while the socket is down.
 */
export function useLiveBroadcast(meetId: string, options: { enabled?: boolean; grant?: string } = {}) {
  const queryClient = useQueryClient();
  const isEnabled = (options.enabled ?? true) && meetId !== '';
  const { grant } = options;
  const isPushed = useBroadcastEvents(
    isEnabled ? meetId : undefined,
    () => {
      void queryClient.invalidateQueries({ queryKey: liveBroadcastKey(meetId) });
    },
    { grant },
  );
  return useQuery({
    queryKey: liveBroadcastKey(meetId),
    // With the room's grant, people in the room learn who is on stage (ADR 045), guests included.
    queryFn: async ({ signal }) =>
      (await api.call(streamingCalls.getBroadcast, { meetId, grant }, { signal })).data.data,
    enabled: isEnabled,
    refetchInterval: (query) => (query.state.status === 'error' ? POLL_AFTER_ERROR_MS : isPushed ? false : POLL_MS),
    staleTime: 0,
    retry: false,
    meta: { silent: true },
  });
}

/** Whether a broadcast is on its way or on air (not yet ended or failed). */
export function isBroadcastActive(broadcast: LiveBroadcast | null | undefined): boolean {
  return broadcast?.state === 'starting' || broadcast?.state === 'live';
}

/** Every change answers the broadcast as it now is: the polled copy takes it at once. */
function useBroadcastMutation<V>(meetId: string, call: (variables: V) => Promise<LiveBroadcast>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (broadcast) => queryClient.setQueryData(liveBroadcastKey(meetId), broadcast),
  });
}

/** The calls that answer the broadcast as it is after them. */
type BroadcastChange =
  | typeof streamingCalls.startBroadcast
  | typeof streamingCalls.goLive
  | typeof streamingCalls.stopBroadcast
  | typeof streamingCalls.changeBroadcastDestination
  | typeof streamingCalls.setBroadcastOverlay
  | typeof streamingCalls.setBroadcastStage;

const asBroadcast = async <Call extends BroadcastChange>(call: Call, input: WebCallInput<Call>) =>
  (await api.call(call, input)).data.data;

export function useStartBroadcast(meetId: string) {
  return useBroadcastMutation(
    meetId,
    (plan: {
      destinations: DestinationRequest[];
      record: 0 | 1;
      scene: SceneFormValues;
      quality?: '720p30' | '1080p30';
      /** 1: a rehearsal (ADR 047), seen in the studio only until "Go live". */
      rehearsal?: 0 | 1;
    }) =>
      asBroadcast(streamingCalls.startBroadcast, {
        meetId,
        destinations: plan.destinations,
        record: plan.record,
        quality: plan.quality,
        rehearsal: plan.rehearsal,
        // The countdown's minutes count from the moment the call is sent.
        ...toSceneRequest(plan.scene, Date.now()),
      }),
  );
}

/** Ends a rehearsal (ADR 047): public from now on, with these destinations and the recording if asked. */
export function useGoLive(meetId: string) {
  return useBroadcastMutation(meetId, (plan: { destinations: DestinationRequest[]; record: 0 | 1 }) =>
    asBroadcast(streamingCalls.goLive, { meetId, destinations: plan.destinations, record: plan.record }),
  );
}

export function useStopBroadcast(meetId: string) {
  return useBroadcastMutation(meetId, () => asBroadcast(streamingCalls.stopBroadcast, { meetId }));
}

export function useAddDestination(meetId: string) {
  return useBroadcastMutation(meetId, (destination: DestinationRequest) =>
    asBroadcast(streamingCalls.changeBroadcastDestination, { meetId, destination: [destination] }),
  );
}

export function useRemoveDestination(meetId: string) {
  return useBroadcastMutation(meetId, (connectionId: number) =>
    asBroadcast(streamingCalls.changeBroadcastDestination, { meetId, remove_connection_id: connectionId }),
  );
}

export interface OverlayValues {
  logo_url: string;
  banner: string;
  ticker: string;
}

/** Sends all three fields: an empty one clears that part of the overlay. */
export function useSetOverlay(meetId: string) {
  return useBroadcastMutation(meetId, (overlay: OverlayValues) =>
    asBroadcast(streamingCalls.setBroadcastOverlay, { meetId, ...overlay }),
  );
}

/** The broadcast picture's layout (ADR 039); the overlay's texts stay as they are. */
export function useSetLayout(meetId: string) {
  return useBroadcastMutation(meetId, (layout: BroadcastLayout) =>
    asBroadcast(streamingCalls.setBroadcastOverlay, { meetId, layout }),
  );
}

/** The overlay image on the stream (issue 45): the kit's standard one, none, or a library overlay. */
export function useSetOverlayImage(meetId: string) {
  return useBroadcastMutation(meetId, (choice: OverlayImageChoice) =>
    asBroadcast(streamingCalls.setBroadcastOverlay, { meetId, overlay_image: choice }),
  );
}

/** The scene on the stream (ADR 042): every scene field is sent, the overlay and layout stay. */
export function useSetScene(meetId: string) {
  return useBroadcastMutation(meetId, (scene: SceneFormValues) =>
    asBroadcast(streamingCalls.setBroadcastOverlay, { meetId, ...toSceneRequest(scene, Date.now()) }),
  );
}

/** Puts one person of the room on the broadcast or backstage (ADR 045). */
export function useSetStage(meetId: string) {
  return useBroadcastMutation(meetId, (change: { participantId: string; onStage: boolean }) =>
    asBroadcast(streamingCalls.setBroadcastStage, {
      meetId,
      participant_id: change.participantId,
      on_stage: change.onStage ? 1 : 0,
    }),
  );
}

/** Twitch's categories matching what was typed (Helix search through the server). */
export function useTwitchCategories(connectionId: number, query: string) {
  return useQuery({
    queryKey: ['twitch-categories', connectionId, query],
    queryFn: async ({ signal }) =>
      (await api.call(streamingCalls.searchTwitchCategories, { connection_id: connectionId, query }, { signal })).data
        .data,
    enabled: query.trim() !== '',
    staleTime: 5 * 60_000,
    retry: false,
    meta: { silent: true },
  });
}
