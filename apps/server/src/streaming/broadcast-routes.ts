import {
  ChangeBroadcastDestinationInputSchema,
  GetBroadcastInputSchema,
  LiveBroadcastBodySchema,
  OptionalLiveBroadcastBodySchema,
  PRIVACY,
  PASSWORD_FLAG,
  RecordingListBodySchema,
  SetBroadcastOverlayInputSchema,
  StartBroadcastInputSchema,
  BroadcastMeetInputSchema,
  TokenOnlyInputSchema,
} from '@meetcast/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, success } from '../http/api-route.js';
import { requestLanguage } from '../http/request-language.js';
import { translate, type MessageKey } from '../i18n/messages.js';
import { findGrant } from '../rooms/grants.js';
import { managesMeeting } from '../rooms/room-service.js';
import {
  changeDestination,
  latestBroadcast,
  listRecordings,
  requireMeeting,
  setOverlay,
  startBroadcast,
  stopBroadcast,
  type ComposerCapacity,
} from './broadcast-service.js';
import { broadcastView, recordingUrl, type BroadcastRow } from './broadcast-view.js';
import type { MeetingRow } from '@meetcast/db';
import { toEpochSeconds } from '../accounts/user-dto.js';

/** The live-broadcast calls (API-CONTRACT.md "Streaming calls"), plus the Live panel's own. */
export function registerBroadcastRoutes(app: FastifyInstance, context: AppContext, composers: ComposerCapacity) {
  const tag = 'streaming';
  const answer = async (
    request: FastifyRequest,
    key: MessageKey,
    found: { broadcast: BroadcastRow; meeting: MeetingRow },
  ) => {
    const language = requestLanguage(request);
    const view = await broadcastView(context, found.broadcast, found.meeting, { canManage: true, language });
    return success(translate(language, key), { data: view });
  };

  apiRoute(app, {
    name: 'start-broadcast.php',
    auth: 'user',
    tag,
    summary: 'Goes live from a meeting: its destinations, and a recording when asked (host or co-host)',
    input: StartBroadcastInputSchema,
    output: LiveBroadcastBodySchema,
    handler: async (body, { request, caller: { user } }) => {
      const found = await startBroadcast(context, composers, {
        user,
        meetId: body.meetId,
        destinations: body.destinations,
        record: body.record === 1,
      });
      return answer(request, 'broadcasts.started', found);
    },
  });

  apiRoute(app, {
    name: 'get-broadcast.php',
    auth: 'optional',
    tag,
    summary: "A meeting's latest broadcast; destinations only for its host and co-hosts",
    input: GetBroadcastInputSchema,
    output: OptionalLiveBroadcastBodySchema,
    handler: async (body, { request, caller }) => {
      const language = requestLanguage(request);
      const meeting = await requireMeeting(context, body.meetId);
      const user = caller?.user;
      const canManage = await managesMeeting(context, meeting, user);
      const grant = body.grant ? await findGrant(context.db, body.grant) : undefined;
      const isInside = canManage || grant?.meeting.id === meeting.id || user?.id === meeting.hostId;
      // A private or password-protected meeting shows its broadcast only to those inside it.
      const isOpen = meeting.isPrivate !== PRIVACY.private && meeting.isPassword !== PASSWORD_FLAG.yes;
      const broadcast = isInside || isOpen ? await latestBroadcast(context, meeting.id) : undefined;
      const view = broadcast ? await broadcastView(context, broadcast, meeting, { canManage, language }) : null;
      return success(translate(language, 'broadcasts.found'), { data: view });
    },
  });

  apiRoute(app, {
    name: 'stop-broadcast.php',
    auth: 'user',
    tag,
    summary: 'Ends the running broadcast of a meeting, every destination and the recording',
    input: BroadcastMeetInputSchema,
    output: LiveBroadcastBodySchema,
    handler: async (body, { request, caller: { user } }) => {
      return answer(request, 'broadcasts.stopped', await stopBroadcast(context, composers, user, body.meetId));
    },
  });

  apiRoute(app, {
    name: 'change-broadcast-destination.php',
    auth: 'user',
    tag,
    summary: 'Adds a destination to a running broadcast (destination) or removes one (remove_connection_id)',
    input: ChangeBroadcastDestinationInputSchema,
    output: LiveBroadcastBodySchema,
    handler: async (body, { request, caller: { user } }) => {
      const found = await changeDestination(context, composers, {
        user,
        meetId: body.meetId,
        add: body.destination?.[0],
        removeConnectionId: body.remove_connection_id,
      });
      return answer(request, 'broadcasts.changed', found);
    },
  });

  apiRoute(app, {
    name: 'set-broadcast-overlay.php',
    auth: 'user',
    tag,
    summary: 'Sets the logo, lower-third banner and ticker drawn over a running broadcast (empty clears)',
    input: SetBroadcastOverlayInputSchema,
    output: LiveBroadcastBodySchema,
    handler: async (body, { request, caller: { user } }) => {
      const found = await setOverlay(context, {
        user,
        meetId: body.meetId,
        logoUrl: body.logo_url,
        banner: body.banner,
        ticker: body.ticker,
      });
      return answer(request, 'broadcasts.changed', found);
    },
  });

  apiRoute(app, {
    name: 'get-recordings.php',
    auth: 'user',
    tag,
    summary: 'Recordings of the meetings the caller hosts, newest first',
    input: TokenOnlyInputSchema,
    output: RecordingListBodySchema,
    handler: async (_body, { caller: { user }, t }) => {
      const rows = await listRecordings(context, user);
      return success(t('broadcasts.recordings'), {
        data: rows.map(({ broadcast, meeting }) => ({
          broadcast_id: broadcast.id,
          url_slug: meeting.slug,
          meeting_title: meeting.name,
          url: recordingUrl(broadcast.recordingFile ?? ''),
          duration: broadcast.recordingSeconds ?? 0,
          created_at: toEpochSeconds(broadcast.createdAt),
        })),
      });
    },
  });
}
