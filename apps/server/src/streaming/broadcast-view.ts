import {
  BROADCAST_LAYOUTS,
  BROADCAST_SCENES,
  type BroadcastOverlay,
  type Language,
  type LiveBroadcast,
} from '@meetcast/contracts';
import { asc, broadcastDestinations, eq, type MeetingRow, type BroadcastRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { isMessageKey, translate } from '../i18n/messages.js';
import { recordingLink, type RecordingReader } from './recording-access.js';
import { brandKitOfHost } from './brand-kit-service.js';
import { overlayImageOnAir } from './brand-overlay-library.js';
import { platformChatStore } from './platform-chat/chat-store.js';
import { RUNNING_BROADCAST_STATES } from './state/transitions.js';
import { toEpochSecondsOrNull } from '../platform/time.js';

/** Stored keys are ours, but a row written by an older version may hold one that no longer exists. */
function message(language: Language, key: string | null): string | null {
  if (!key) return null;
  return isMessageKey(key) ? translate(language, key) : key;
}

/** The address of a recording anyone may fetch (an open meeting's); see recording-access.ts. */
export const recordingUrl = (file: string) => `/api/recordings/${file}`;

/** What the composer's layout page draws over the people (ADR 039, 042): also pushed to the room (broadcast-sockets.ts). */
export async function overlayView(
  context: AppContext,
  broadcast: BroadcastRow,
  meeting: MeetingRow,
): Promise<BroadcastOverlay> {
  const isRunning = RUNNING_BROADCAST_STATES.includes(broadcast.state);
  const brand = await brandKitOfHost(context, meeting.hostId);
  const overlayImage = overlayImageOnAir(broadcast, brand);
  return {
    logo_url: broadcast.overlayLogoUrl,
    banner: broadcast.overlayBanner,
    ticker: broadcast.overlayTicker,
    comment: isRunning ? await platformChatStore(context).card(broadcast.id) : null,
    // Stored as text and only ever written through the set call's enum.
    layout: BROADCAST_LAYOUTS.find((layout) => layout === broadcast.overlayLayout) ?? 'auto',
    scene: BROADCAST_SCENES.find((scene) => scene === broadcast.overlayScene) ?? 'live',
    scene_message: broadcast.overlaySceneMessage,
    scene_countdown_to: toEpochSecondsOrNull(broadcast.overlaySceneCountdownTo),
    brand,
    overlay_image: overlayImage.choice,
    overlay_image_url: overlayImage.url,
  };
}

/**
 * A broadcast as the contract shows it; destinations only for those who manage it, the recording only
 * for those who may fetch it (at the address made for them).
 */
export async function broadcastView(
  context: AppContext,
  broadcast: BroadcastRow,
  meeting: MeetingRow,
  /** `seesRoom`: a manager or someone admitted to the room, who may see who is on stage (ADR 045). */
  viewer: { canManage: boolean; language: Language; reader: RecordingReader; seesRoom?: boolean },
): Promise<LiveBroadcast> {
  const recordingAddress =
    broadcast.recordingFile && broadcast.recordingSeconds
      ? recordingLink(context.config, broadcast.recordingFile, viewer.reader)
      : null;
  const destinations = viewer.canManage
    ? await context.db
        .select()
        .from(broadcastDestinations)
        .where(eq(broadcastDestinations.broadcastId, broadcast.id))
        .orderBy(asc(broadcastDestinations.id))
    : [];
  // Below 720p30: the machine was busy. 1080p30 is only ever what the host asked for (ADR 050).
  const reduced =
    broadcast.quality && !['720p30', '1080p30'].includes(broadcast.quality) && broadcast.state !== 'ended';
  return {
    id: broadcast.id,
    url_slug: meeting.slug,
    state: broadcast.state,
    started_at: toEpochSecondsOrNull(broadcast.startedAt),
    ended_at: toEpochSecondsOrNull(broadcast.endedAt),
    destinations: destinations
      .filter((destination) => !destination.removed)
      .map((destination) => ({
        connection_id: destination.connectionId ?? 0,
        platform: destination.platform,
        name: destination.name,
        state: destination.state,
        error: message(viewer.language, destination.error),
        bitrate_kbps: destination.bitrateKbps,
        fps: destination.fps,
        health: destination.health,
        viewers: destination.viewers,
      })),
    recording: recordingAddress ? { url: recordingAddress, duration: broadcast.recordingSeconds ?? 0 } : null,
    watch_url: `${context.config.publicUrl}/channel/${meeting.slug}`,
    notice: broadcast.failure
      ? message(viewer.language, broadcast.failure)
      : reduced
        ? translate(viewer.language, 'broadcasts.reduced_quality', { quality: broadcast.quality ?? '' })
        : null,
    quality: viewer.canManage ? broadcast.quality : null,
    overlay: await overlayView(context, broadcast, meeting),
    can_manage: viewer.canManage,
    on_stage: viewer.seesRoom ? broadcast.onStage : null,
    // Only its managers and the room are ever shown a rehearsal (ADR 047); the field is theirs.
    ...(viewer.seesRoom ? { rehearsal: broadcast.rehearsal } : {}),
  };
}
