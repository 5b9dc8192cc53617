import { JOIN_KEY_HEADER } from '@meetcast/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { success } from '../http/api-route.js';
import { apiRoute } from '../http/api-route.js';
import { requestLanguage } from '../http/request-language.js';
import { translate } from '../i18n/messages.js';
import { enforceLimits } from '../platform/limits.js';
import { reopenForOwner, requireReachableMeeting } from './meeting-restart.js';
import { joinOrigin } from './room-browser.js';
import { joinMeeting, mediaAccess, roomMeeting } from './room-service.js';
import type { MediaConnections } from './room-sockets.js';

const ROOM_LIMITS = {
  joinByAddress: { name: 'room-join-address', limit: 60, windowSeconds: 300 },
  passwordByMeeting: { name: 'room-password-meeting', limit: 30, windowSeconds: 300 },
};

export function registerRoomRoutes(app: FastifyInstance, context: AppContext, mediaConnections: MediaConnections) {
  apiRoute(app, {
    name: 'get-room.php',
    tag: 'rooms',
    summary: 'What the pre-join screen shows about a meeting room (never its password)',
    handler: async (body, { request, caller }) => {
      const { meeting, hostName } = await requireReachableMeeting(context, body.meetId);
      const user = caller?.user;
      const language = requestLanguage(request);
      return success(translate(language, 'room.found'), {
        meeting: await roomMeeting(context, meeting, { user, language }, hostName),
        is_host: user?.id === meeting.hostId,
      });
    },
  });

  apiRoute(app, {
    name: 'join-room.php',
    tag: 'rooms',
    summary: 'Checks password, lock and lobby rules and answers a short-lived join grant',
    handler: async (body, { request, reply, caller }) => {
      const reached = await requireReachableMeeting(context, body.meetId);
      await enforceLimits(context, [[ROOM_LIMITS.joinByAddress, request.ip]]);
      if (body.password) {
        await enforceLimits(context, [[ROOM_LIMITS.passwordByMeeting, `${reached.meeting.id}:${request.ip}`]]);
      }
      const user = caller?.user;
      const meeting = await reopenForOwner(context, reached.meeting, user);
      const { token, participant, placed } = await joinMeeting(context, {
        meeting,
        user,
        displayName: body.display_name,
        password: body.password,
        backstage: body.backstage === 1,
        origin: joinOrigin(context, request, reply),
      });
      const language = requestLanguage(request);
      // Read before the early join is admitted: once Janus has answered that, our answer goes at once.
      const roomView = await roomMeeting(context, meeting, { user, language }, reached.hostName);
      if (placed) {
        // The page names the connection it prepared on the pre-join screen: it is admitted now (ADR 016).
        const key = request.headers[JOIN_KEY_HEADER];
        const link = typeof key === 'string' ? { key, address: request.ip } : undefined;
        // The page sent its publisher join right beside this request: admitting the connection sends it
        // to Janus, now or as soon as it arrives, and our answer waits for Janus' (ADR 016).
        await mediaConnections.expectJoin(
          token,
          { participantId: participant.id, meetingId: meeting.id, placed },
          link,
        );
      }
      const state = participant.state === 'lobby' ? 'lobby' : 'admitted';
      return success(translate(language, state === 'lobby' ? 'room.waiting_in_lobby' : 'room.joined'), {
        grant: token,
        participant_id: participant.id,
        display_name: participant.displayName,
        role: participant.role,
        state,
        meeting: roomView,
        media: placed === undefined ? null : await mediaAccess(context, placed.room, participant.id),
      });
    },
  });
}
