import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { publicBroadcastState, WINDOW_PROBE, type BroadcastViewer } from '@meetcast/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiRoute, success } from '../../http/api-route.js';
import { notFound } from '../../http/app-error.js';
import { requestLanguage } from '../../http/request-language.js';
import { translate } from '../../i18n/messages.js';
import { findMeeting } from '../../rooms/room-service.js';
import { chaptersOf } from '../broadcast-chapters.js';
import { latestPublicBroadcast, requireRunning } from '../broadcast-service.js';
import type { BroadcastSignals } from '../broadcast-signals.js';
import { recordingUrl } from '../broadcast-view.js';
import { onMeetingAudienceChanged } from '../../meeting-records/meeting-audience.js';
import { MemoryHlsAudience, RedisHlsAudience } from './hls-audience.js';
import { PublicCache, type CacheSubject } from './public-cache.js';
import { watchInstances } from './audience-instances.js';
import { HLS_FILE } from './hls-renditions.js';
import { isOpenToViewers, watchableBroadcasts } from './viewer-audience.js';
import { attachViewerProxy, VIEWER_PROXY_PATH } from './viewer-proxy.js';
import {
  isLiveStreamKey,
  issuePreviewGrant,
  issueViewerGrant,
  liveStreamFolder,
  liveStreamUrl,
  mountpointId,
} from './viewer-keys.js';
import { toEpochSecondsOrNull } from '../../platform/time.js';

/** Every viewer asks every few seconds; Janus is asked for the count at most this often per broadcast. */
const VIEWER_COUNT_MS = 3000;
const CACHED_KEYS = 5000;
/**
 * For any HTTP cache or CDN in front (ADR 034). A segment never changes once listed, under a name
 * never reused; the playlists change every segment (a second for the live one), so a cache keeps them no longer.
 * Nothing else may be kept: a refusal now is not one in a second.
 */
const HLS_CACHE_CONTROL = {
  segment: 'public, max-age=86400, immutable',
  playlist: 'public, max-age=1',
  refusal: 'no-store',
};

/**
 * The public channel page's player (ADR 011): `get-broadcast-viewer.php` (state, viewer count, a
 * viewer grant and the HLS address while live, the recording once ended), the HLS files while the
 * broadcast runs, and the viewers' Janus proxy.
 */
export function registerViewerRoutes(app: FastifyInstance, context: AppContext, signals: BroadcastSignals) {
  const counts = new PublicCache<number, number | null>({ maxAgeMs: VIEWER_COUNT_MS, maxEntries: CACHED_KEYS });
  // What the public is shown is read again this often when no change was announced (a meeting edited
  // elsewhere while Redis was away); an announced change drops it at once, in every process (ADR 034).
  const publicState = { maxAgeMs: context.config.viewerStateMaxAgeMs, maxEntries: CACHED_KEYS };
  const states = new PublicCache<string, PublicViewerState | undefined>(publicState);
  const watchable = new PublicCache<number, { meetingId: number } | undefined>(publicState);
  const hlsAudience = context.redis
    ? new RedisHlsAudience(context.redis, context.config.redisPrefix)
    : new MemoryHlsAudience();
  // A change in any process (a state moved, a viewer arrived or left, a meeting hidden) reaches every
  // process's caches here; a pushed change must carry the new count, not the cached one.
  const forget = (changed: CacheSubject) => {
    for (const cache of [counts, states, watchable]) cache.forget(changed);
  };
  signals.on((signal) => {
    if (signal.kind === 'changed') forget(signal);
  });
  /** Viewers over WebRTC (Janus' count for the mountpoint) plus over HLS; null when neither is known. */
  const viewerCount = (broadcastId: number, meetingId: number): Promise<number | null> =>
    counts.get(broadcastId, async () => ({
      value: await countViewers(broadcastId, meetingId),
      subject: { broadcastId, meetingId },
    }));
  const countViewers = async (broadcastId: number, meetingId: number): Promise<number | null> => {
    let webRtcViewers: number | null = null;
    try {
      // The audience of every instance serving the broadcast (ADR 036); one that does not answer counts none.
      const counts = await Promise.all(
        (await watchInstances(context, meetingId)).map((instance) =>
          instance.client
            .mountpointViewers(mountpointId(context.config, broadcastId), instance.secret)
            .catch(() => null),
        ),
      );
      const known = counts.filter((count) => count !== null);
      webRtcViewers = known.length > 0 ? known.reduce((sum, count) => sum + count, 0) : null;
    } catch {
      webRtcViewers = null;
    }
    const hlsViewers = await hlsAudience.count(broadcastId);
    return webRtcViewers === null && hlsViewers === 0 ? null : (webRtcViewers ?? 0) + hlsViewers;
  };

  /** What every viewer of this meetId is shown; undefined for a private or password meeting, or none. */
  const publicViewerState = async (meetId: string) => {
    const meeting = await findMeeting(context, meetId);
    // A private or password-protected meeting is never shown here, not even that it exists.
    if (!meeting || !isOpenToViewers(meeting)) return { value: undefined, subject: { meetingId: meeting?.id } };
    // A rehearsal is no broadcast to the public (ADR 047): the previous one's replay, or none.
    const broadcast = await latestPublicBroadcast(context, meeting.id);
    const isRunning = broadcast?.state === 'starting' || broadcast?.state === 'live';
    const recording =
      broadcast?.recordingFile && broadcast.recordingSeconds
        ? {
            url: recordingUrl(broadcast.recordingFile),
            duration: broadcast.recordingSeconds,
            chapters: await chaptersOf(context, broadcast),
          }
        : null;
    const value: PublicViewerState = {
      broadcast_id: broadcast?.id ?? null,
      state: broadcast?.state ?? 'none',
      started_at: toEpochSecondsOrNull(broadcast?.startedAt ?? null),
      ended_at: toEpochSecondsOrNull(broadcast?.endedAt ?? null),
      viewers: broadcast?.state === 'live' ? await viewerCount(broadcast.id, meeting.id) : null,
      hls_url: broadcast && isRunning ? liveStreamUrl(context.config, broadcast.id) : null,
      recording,
      public_state: publicBroadcastState({
        broadcast: broadcast?.state ?? 'none',
        hasRecording: recording !== null,
        meeting: meeting.state === 'live' ? 'live' : meeting.state === 'scheduled' ? 'scheduled' : 'ended',
        scheduleOver: meeting.endTime <= new Date(),
      }),
    };
    return { value, subject: { meetingId: meeting.id, broadcastId: broadcast?.id } };
  };

  /**
   * What the channel page plays for this meetId; a private or password meeting is unknown here. The
   * viewer grant is made for each answer, from the cached broadcast id: it is no part of the cache.
   * `changed`: a change its caller knows of and the caches may not have heard yet (the listeners of
   * `broadcast.changed` run one after another: a push must not carry the state before it).
   */
  const viewerState = async (meetId: string, changed?: CacheSubject): Promise<BroadcastViewer> => {
    if (changed) forget(changed);
    const shown = await states.get(meetId, () => publicViewerState(meetId));
    if (!shown) throw notFound('room.not_found');
    const { broadcast_id: broadcastId, state } = shown;
    const webrtc =
      state === 'live' && broadcastId !== null
        ? {
            url: VIEWER_PROXY_PATH,
            ...toWire(issueViewerGrant(context.config, broadcastId)),
            ice_servers: await context.media.iceServers(`viewer-${broadcastId}`),
          }
        : null;
    return { ...shown, webrtc };
  };

  apiRoute(app, {
    name: 'get-broadcast-viewer.php',
    tag: 'streaming',
    summary: "What a public channel page plays: a public meeting's broadcast, live (with a viewer grant) or recorded",
    handler: async (body, { t }) => success(t('broadcasts.found'), { data: await viewerState(body.meetId) }),
  });

  apiRoute(app, {
    name: 'get-broadcast-preview.php',
    tag: 'streaming',
    summary:
      "The studio's preview of a running broadcast (host or co-host, whatever the meeting's visibility): a preview grant to watch its encoded output over WebRTC from the viewers' mountpoint",
    handler: async (body, { t, caller: { user } }) => {
      // 404 for an unknown meeting, 403 for anyone but its host and co-hosts, 409 while nothing runs.
      const { broadcast } = await requireRunning(context, user, body.meetId);
      const preview = {
        url: VIEWER_PROXY_PATH,
        ...toWire(issuePreviewGrant(context.config, broadcast.id)),
        ice_servers: await context.media.iceServers(`preview-${broadcast.id}`),
      };
      return success(t('broadcasts.found'), { data: preview });
    },
  });

  app.get<{ Params: { id: string; key: string; file: string }; Querystring: Record<string, string | undefined> }>(
    '/api/live/:id/:key/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const { id, key, file } = request.params;
      const broadcastId = /^\d{1,10}$/.test(id) ? Number(id) : 0;
      const isKnown = broadcastId > 0 && HLS_FILE.test(file) && isLiveStreamKey(context.config, broadcastId, key);
      // Only while the broadcast runs and its meeting is public: the segments of an ended one, or of
      // one whose meeting was made private, are gone from the address within a second.
      const running = isKnown ? await watchable.get(broadcastId, () => watchableNow(broadcastId)) : undefined;
      const path = join(liveStreamFolder(context.config, broadcastId), file);
      if (!running || !existsSync(path)) {
        return reply
          .status(404)
          .header('cache-control', HLS_CACHE_CONTROL.refusal)
          .send({ status: 'error', message: translate(requestLanguage(request), 'broadcasts.not_running') });
      }
      const isPlaylist = file.endsWith('.m3u8');
      // A WebRTC viewer's player reads the rewind list for its length (ADR 037): that is not watching.
      const isWatching = isPlaylist && request.query[WINDOW_PROBE] === undefined;
      if (isWatching && (await hlsAudience.seen(broadcastId, request.ip, request.headers['user-agent'] ?? ''))) {
        void context.events.emit('broadcast.changed', { meetingId: running.meetingId, broadcastId });
      }
      return reply
        .type(isPlaylist ? 'application/vnd.apple.mpegurl' : 'video/mp2t')
        .header('cache-control', isPlaylist ? HLS_CACHE_CONTROL.playlist : HLS_CACHE_CONTROL.segment)
        .send(createReadStream(path));
    },
  );

  const watchableNow = async (broadcastId: number) => {
    const running = (await watchableBroadcasts(context, [broadcastId])).get(broadcastId);
    return { value: running, subject: { broadcastId, meetingId: running?.meetingId } };
  };

  const proxy = attachViewerProxy(app, context);
  onMeetingAudienceChanged(context, (meetingId) => {
    // Every process stops serving the meeting's public answers and its HLS now, not in a second.
    signals.send({ kind: 'changed', meetingId });
    return proxy.dropMeetingAudience(meetingId);
  });
  return { viewerState, viewerConnections: proxy.connections };
}

/** A broadcast's viewer answer as every viewer is shown it: the grant is added for each request. */
type PublicViewerState = Omit<BroadcastViewer, 'webrtc'>;

const toWire = (grant: { grant: string; expiresAt: number }) => ({ grant: grant.grant, expires_at: grant.expiresAt });
