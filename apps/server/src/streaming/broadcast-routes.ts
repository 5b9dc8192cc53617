import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, success } from '../http/api-route.js';
import { requestLanguage } from '../http/request-language.js';
import { translate, type MessageKey } from '../i18n/messages.js';
import { isAdmittedTo } from '../rooms/grants.js';
import { managesMeeting } from '../rooms/room-service.js';
import {
  changeDestination,
  goLive,
  latestBroadcast,
  latestPublicBroadcast,
  listRecordings,
  requireMeeting,
  requireRunning,
  setOverlay,
  startBroadcast,
  stopBroadcast,
} from './broadcast-service.js';
import type { ComposerCapacity } from './broadcast-limits.js';
import { setStage } from './broadcast-stage.js';
import { broadcastView, recordingUrl } from './broadcast-view.js';
import { isOpenMeeting, recordingLink, recordingReader } from './recording-access.js';
import type { MeetingRow, users, BroadcastRow } from '@meetcast/db';
import { toEpochSeconds } from '../platform/time.js';

/** The live-broadcast calls (described in /api/openapi.json), plus the Live panel's own. */
export function registerBroadcastRoutes(app: FastifyInstance, context: AppContext, composers: ComposerCapacity) {
  const tag = 'streaming';
  /** What a change answers its manager (the host or a co-host, who may fetch the recording too). */
  const answer = async (
    request: FastifyRequest,
    user: typeof users.$inferSelect,
    key: MessageKey,
    found: { broadcast: BroadcastRow; meeting: MeetingRow },
  ) => {
    const language = requestLanguage(request);
    const reader = await recordingReader(context, found.meeting, user);
    const view = await broadcastView(context, found.broadcast, found.meeting, {
      canManage: true,
      language,
      reader,
      seesRoom: true,
    });
    return success(translate(language, key), { data: view });
  };

  apiRoute(app, {
    name: 'start-broadcast.php',
    tag,
    summary:
      'Goes live from a meeting: its destinations, a recording when asked, the scene it starts on, and 1080p30 when asked and affordable (host or co-host)',
    handler: async (body, { request, caller: { user } }) => {
      const found = await startBroadcast(context, composers, {
        user,
        meetId: body.meetId,
        destinations: body.destinations,
        record: body.record === 1,
        quality: body.quality,
        rehearsal: body.rehearsal === 1,
        scene: { scene: body.scene, message: body.scene_message, countdownTo: body.scene_countdown_to },
      });
      return answer(request, user, 'broadcasts.started', found);
    },
  });

  apiRoute(app, {
    name: 'go-live.php',
    tag,
    summary:
      'Ends a rehearsal: the running broadcast becomes public, with its destinations and the recording if asked, on the same encode; a second call changes nothing (host or co-host)',
    handler: async (body, { request, caller: { user } }) => {
      const found = await goLive(context, composers, {
        user,
        meetId: body.meetId,
        destinations: body.destinations,
        record: body.record === 1,
      });
      return answer(request, user, 'broadcasts.started', found);
    },
  });

  apiRoute(app, {
    name: 'get-broadcast.php',
    tag,
    summary:
      "A meeting's latest broadcast: an open meeting's to anyone; a private or password meeting's only to its host's and invitees' accounts and to grants admitted to its room; destinations only for its host and co-hosts",
    handler: async (body, { request, caller }) => {
      const language = requestLanguage(request);
      const meeting = await requireMeeting(context, body.meetId);
      const user = caller?.user;
      const canManage = await managesMeeting(context, meeting, user);
      // An open meeting's broadcast is anyone's; another's only its host's and invitees' (the accounts that
      // may fetch its recording) and the room's: someone knocking at the lobby is not inside yet.
      const reader = await recordingReader(context, meeting, user);
      const mayLook = reader.kind !== 'nobody' || (await isAdmittedTo(context.db, body.grant, meeting.id));
      // A rehearsal (ADR 047) is its managers' and the room's (who see "Rehearsal"); to others, the one before.
      const inRoom = canManage || (await isAdmittedTo(context.db, body.grant, meeting.id));
      const latest = canManage || inRoom ? latestBroadcast : latestPublicBroadcast;
      const broadcast = mayLook ? await latest(context, meeting.id) : undefined;
      const seesRoom = inRoom;
      const view = broadcast
        ? await broadcastView(context, broadcast, meeting, { canManage, language, reader, seesRoom })
        : null;
      return success(translate(language, 'broadcasts.found'), { data: view });
    },
  });

  apiRoute(app, {
    name: 'stop-broadcast.php',
    tag,
    summary: 'Ends the running broadcast of a meeting, every destination and the recording',
    handler: async (body, { request, caller: { user } }) => {
      const stopped = await stopBroadcast(context, composers, user, body.meetId);
      // Never "ended" while it is not: a composer still ending it says so, with the state it is in.
      return answer(request, user, stopped.hasEnded ? 'broadcasts.stopped' : 'broadcasts.stopping', stopped);
    },
  });

  apiRoute(app, {
    name: 'change-broadcast-destination.php',
    tag,
    summary: 'Adds a destination to a running broadcast (destination) or removes one (remove_connection_id)',
    handler: async (body, { request, caller: { user } }) => {
      const found = await changeDestination(context, composers, {
        user,
        meetId: body.meetId,
        add: body.destination?.[0],
        removeConnectionId: body.remove_connection_id,
      });
      return answer(request, user, 'broadcasts.changed', found);
    },
  });

  apiRoute(app, {
    name: 'set-broadcast-overlay.php',
    tag,
    summary:
      "Sets the logo, lower-third banner and ticker drawn over a running broadcast (empty clears), its layout, its scene (a holding screen with a message and a countdown, or the people) and its overlay image (`kit`, `none` or a library overlay's id; 404 for an id not in the host's brand kit)",
    handler: async (body, { request, caller: { user } }) => {
      const found = await setOverlay(context, {
        user,
        meetId: body.meetId,
        logoUrl: body.logo_url,
        banner: body.banner,
        ticker: body.ticker,
        layout: body.layout,
        overlayImage: body.overlay_image,
        scene: { scene: body.scene, message: body.scene_message, countdownTo: body.scene_countdown_to },
      });
      return answer(request, user, 'broadcasts.changed', found);
    },
  });

  apiRoute(app, {
    name: 'set-broadcast-stage.php',
    tag,
    summary:
      'Puts one person of the room on the running broadcast (on_stage 1) or backstage (0): backstage they are in the meeting but neither seen nor heard on the stream (host or co-host)',
    handler: async (body, { request, caller: { user } }) => {
      const running = await requireRunning(context, user, body.meetId);
      const found = await setStage(context, running, {
        participantId: body.participant_id,
        onStage: body.on_stage === 1,
      });
      return answer(request, user, body.on_stage === 1 ? 'broadcasts.stage_added' : 'broadcasts.stage_removed', found);
    },
  });

  apiRoute(app, {
    name: 'get-recordings.php',
    tag,
    summary: 'Recordings of the meetings the caller hosts, newest first',
    handler: async (_body, { caller: { user }, t }) => {
      const rows = await listRecordings(context, user);
      // The caller hosts each of them: an open meeting's at its public address, another's signed for them.
      const host = { kind: 'account', userId: user.id } as const;
      return success(t('broadcasts.recordings'), {
        data: rows.map(({ broadcast, meeting }) => ({
          broadcast_id: broadcast.id,
          url_slug: meeting.slug,
          meeting_title: meeting.name,
          url: isOpenMeeting(meeting)
            ? recordingUrl(broadcast.recordingFile ?? '')
            : (recordingLink(context.config, broadcast.recordingFile ?? '', host) ?? ''),
          duration: broadcast.recordingSeconds ?? 0,
          created_at: toEpochSeconds(broadcast.createdAt),
        })),
      });
    },
  });
}
