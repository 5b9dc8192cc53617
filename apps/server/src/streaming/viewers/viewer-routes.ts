import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { publicBroadcastState, type BroadcastViewer } from '@meetcast/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiRoute, success } from '../../http/api-route.js';
import { notFound } from '../../http/app-error.js';
import { requestLanguage } from '../../http/request-language.js';
import { translate } from '../../i18n/messages.js';
import { latestBroadcast, requireMeeting } from '../broadcast-service.js';
import { recordingUrl } from '../broadcast-view.js';
import { onMeetingAudienceChanged } from '../../meeting-records/meeting-audience.js';
import { MemoryHlsAudience, RedisHlsAudience } from './hls-audience.js';
import { isOpenToViewers, watchableBroadcasts } from './viewer-audience.js';
import { attachViewerProxy, VIEWER_PROXY_PATH } from './viewer-proxy.js';
import { isLiveStreamKey, issueViewerGrant, liveStreamFolder, liveStreamUrl, mountpointId } from './viewer-keys.js';
import { toEpochSecondsOrNull } from '../../platform/time.js';

/** Every viewer asks every few seconds; Janus is asked for the count at most this often per broadcast. */
const VIEWER_COUNT_MS = 3000;
const HLS_FILE = /^(index\.m3u8|segment-\d{1,9}\.ts)$/;

/**
 * The public channel page's player (ADR 011): `get-broadcast-viewer.php` (state, viewer count, a
 * viewer grant and the HLS address while live, the recording once ended), the HLS files while the
 * broadcast runs, and the viewers' Janus proxy.
 */
export function registerViewerRoutes(app: FastifyInstance, context: AppContext) {
  const counts = new Map<number, { at: number; viewers: number | null }>();
  const hlsAudience = context.redis
    ? new RedisHlsAudience(context.redis, context.config.redisPrefix)
    : new MemoryHlsAudience();
  // A pushed change (a viewer arrived or left, a state moved) must carry the new count, not the cached one.
  context.events.on('broadcast.changed', ({ broadcastId }) => {
    counts.delete(broadcastId);
  });
  /** Viewers over WebRTC (Janus' count for the mountpoint) plus over HLS; null when neither is known. */
  const viewerCount = async (broadcastId: number, meetingId: number): Promise<number | null> => {
    const cached = counts.get(broadcastId);
    if (cached && Date.now() - cached.at < VIEWER_COUNT_MS) return cached.viewers;
    let webRtcViewers: number | null = null;
    try {
      const placed = await context.media.placedStreaming(meetingId);
      webRtcViewers = placed
        ? await placed.client.mountpointViewers(mountpointId(context.config, broadcastId), placed.secret)
        : null;
    } catch {
      webRtcViewers = null;
    }
    const hlsViewers = await hlsAudience.count(broadcastId);
    const viewers = webRtcViewers === null && hlsViewers === 0 ? null : (webRtcViewers ?? 0) + hlsViewers;
    counts.set(broadcastId, { at: Date.now(), viewers });
    if (counts.size > 1000) counts.clear();
    return viewers;
  };

  /** What the channel page plays for this meetId; a private or password meeting is unknown here. */
  const viewerState = async (meetId: string): Promise<BroadcastViewer> => {
    const meeting = await requireMeeting(context, meetId);
    // A private or password-protected meeting is never shown here, not even that it exists.
    if (!isOpenToViewers(meeting)) throw notFound('room.not_found');
    const broadcast = await latestBroadcast(context, meeting.id);
    const isRunning = broadcast?.state === 'starting' || broadcast?.state === 'live';
    const recording =
      broadcast?.recordingFile && broadcast.recordingSeconds
        ? { url: recordingUrl(broadcast.recordingFile), duration: broadcast.recordingSeconds }
        : null;
    return {
      broadcast_id: broadcast?.id ?? null,
      state: broadcast?.state ?? 'none',
      started_at: toEpochSecondsOrNull(broadcast?.startedAt ?? null),
      ended_at: toEpochSecondsOrNull(broadcast?.endedAt ?? null),
      viewers: broadcast?.state === 'live' ? await viewerCount(broadcast.id, meeting.id) : null,
      webrtc:
        broadcast?.state === 'live'
          ? {
              url: VIEWER_PROXY_PATH,
              ...toWire(issueViewerGrant(context.config, broadcast.id)),
              ice_servers: context.config.janus.iceServers,
            }
          : null,
      hls_url: broadcast && isRunning ? liveStreamUrl(context.config, broadcast.id) : null,
      recording,
      public_state: publicBroadcastState({
        broadcast: broadcast?.state ?? 'none',
        hasRecording: recording !== null,
        meeting: meeting.state === 'live' ? 'live' : meeting.state === 'scheduled' ? 'scheduled' : 'ended',
        scheduleOver: meeting.endTime <= new Date(),
      }),
    };
  };

  apiRoute(app, {
    name: 'get-broadcast-viewer.php',
    tag: 'streaming',
    summary: "What a public channel page plays: a public meeting's broadcast, live (with a viewer grant) or recorded",
    handler: async (body, { t }) => success(t('broadcasts.found'), { data: await viewerState(body.meetId) }),
  });

  app.get<{ Params: { id: string; key: string; file: string } }>(
    '/api/live/:id/:key/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const { id, key, file } = request.params;
      const broadcastId = /^\d{1,10}$/.test(id) ? Number(id) : 0;
      const isKnown = broadcastId > 0 && HLS_FILE.test(file) && isLiveStreamKey(context.config, broadcastId, key);
      // Only while the broadcast runs and its meeting is public: the segments of an ended one, or of
      // one whose meeting was made private, are gone from the address at once.
      const watchable = isKnown ? (await watchableBroadcasts(context, [broadcastId])).get(broadcastId) : undefined;
      const running = watchable !== undefined;
      const path = join(liveStreamFolder(context.config, broadcastId), file);
      if (!running || !existsSync(path)) {
        return reply
          .status(404)
          .send({ status: 'error', message: translate(requestLanguage(request), 'broadcasts.not_running') });
      }
      const isPlaylist = file.endsWith('.m3u8');
      if (isPlaylist && (await hlsAudience.seen(broadcastId, request.ip, request.headers['user-agent'] ?? ''))) {
        void context.events.emit('broadcast.changed', { meetingId: watchable.meetingId, broadcastId });
      }
      return reply
        .type(isPlaylist ? 'application/vnd.apple.mpegurl' : 'video/mp2t')
        .header('cache-control', isPlaylist ? 'no-cache' : 'private, max-age=60')
        .send(createReadStream(path));
    },
  );

  const proxy = attachViewerProxy(app, context);
  onMeetingAudienceChanged(context, (meetingId) => proxy.dropMeetingAudience(meetingId));
  return { viewerState, viewerConnections: proxy.connections };
}

const toWire = (grant: { grant: string; expiresAt: number }) => ({ grant: grant.grant, expires_at: grant.expiresAt });
