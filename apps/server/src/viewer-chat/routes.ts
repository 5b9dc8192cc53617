import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, done, success, type Caller } from '../http/api-route.js';
import { enforceLimits } from '../platform/limits.js';
import { MemoryChatMarks, RedisChatMarks, type ChatMarks } from './chat-marks.js';
import { chatScope } from './viewer-chat-access.js';
import {
  chatState,
  deleteMessage,
  describeMessages,
  pinMessage,
  postMessage,
  restrictAuthor,
  setSlowMode,
  showAsBanner,
} from './viewer-chat-service.js';
import type { ViewerChatSockets } from './viewer-chat-socket.js';
import {
  chatViewer,
  newViewerId,
  newViewerToken,
  openViewerToken,
  setViewerBrowser,
  viewerBrowserOf,
} from './viewer-identity.js';

/** New identities per address: enough for a household or a school behind one address. */
const IDENTITIES_BY_ADDRESS = { name: 'viewer-chat-identity', limit: 60, windowSeconds: 3600 };

type Credentials = {
  meetId: string;
  token?: string | undefined;
  grant?: string | undefined;
  viewer_token?: string | undefined;
};

/** The viewer-chat calls: reading and posting for everyone, moderation for the channel's and meeting's hosts. */
export function registerViewerChatRoutes(app: FastifyInstance, context: AppContext, sockets: ViewerChatSockets) {
  const tag = 'viewer-chat';
  const marks: ChatMarks = context.redis
    ? new RedisChatMarks(context.redis, context.config.redisPrefix)
    : new MemoryChatMarks();
  const scopeOf = (body: Credentials, caller: Caller | undefined, request: FastifyRequest) =>
    chatScope(context, body.meetId, (meeting) =>
      chatViewer(context, meeting, {
        user: caller?.user,
        grant: body.grant,
        viewerToken: body.viewer_token,
        request,
      }),
    );

  apiRoute(app, {
    name: 'get-viewer-chat-identity.php',
    tag,
    summary: "A guest viewer's per-browser identity (sealed by the server); a valid one sent back is kept",
    handler: async (body, { request, reply, t }) => {
      const kept = openViewerToken(context, body.viewer_token);
      // The identity is the browser's own id: the same browser asking again is the same viewer.
      let browserId = viewerBrowserOf(context, request);
      if (!browserId) {
        if (!kept) await enforceLimits(context, [[IDENTITIES_BY_ADDRESS, request.ip]]);
        browserId = kept ?? newViewerId();
        setViewerBrowser(context, reply, browserId);
      }
      const token = kept && body.viewer_token ? body.viewer_token : newViewerToken(context, browserId);
      return success(t('viewer_chat.identity'), { viewer_token: token });
    },
  });

  apiRoute(app, {
    name: 'get-viewer-chat.php',
    tag,
    summary: "A broadcast's viewer chat: messages (with their offset for the replay), pinned message, slow mode",
    handler: async (body, { caller, request, t }) => {
      const scope = await scopeOf(body, caller, request);
      return success(t('viewer_chat.loaded'), { data: await chatState(context, scope) });
    },
  });

  apiRoute(app, {
    name: 'post-viewer-chat.php',
    tag,
    summary: 'Posts to the viewer chat of a live broadcast (guests send display_name and viewer_token)',
    handler: async (body, { caller, request, t }) => {
      const scope = await scopeOf(body, caller, request);
      const message = await postMessage(context, scope, marks, { text: body.text, displayName: body.display_name });
      sockets.toMeeting(scope.meeting.id, { type: 'message.created', broadcast_id: scope.broadcast!.id, message });
      return success(t('viewer_chat.posted'), { data: message });
    },
  });

  apiRoute(app, {
    name: 'delete-viewer-chat-message.php',
    tag,
    summary: 'Deletes a viewer-chat message (channel owner, meeting host or co-host)',
    handler: async (body, { caller, request, t }) => {
      const scope = await scopeOf(body, caller, request);
      const message = await deleteMessage(context, scope, body.id);
      sockets.toMeeting(scope.meeting.id, {
        type: 'message.deleted',
        broadcast_id: message.broadcastId,
        id: message.id,
      });
      return done(t('viewer_chat.deleted'));
    },
  });

  apiRoute(app, {
    name: 'moderate-viewer-chat.php',
    tag,
    summary: "Bans, times out (minutes) or lets back in a message's author, by account or by browser identity",
    handler: async (body, { caller, request, t }) => {
      const scope = await scopeOf(body, caller, request);
      const result = await restrictAuthor(context, scope, marks, {
        id: body.id,
        action: body.action,
        minutes: body.minutes,
      });
      sockets.toViewer(scope.meeting.id, result.author, {
        type: 'self.restricted',
        is_banned: result.isBanned,
        muted_until: result.mutedUntil,
      });
      return done(t(`viewer_chat.${body.action === 'unban' ? 'unbanned' : 'restricted'}`));
    },
  });

  apiRoute(app, {
    name: 'pin-viewer-chat-message.php',
    tag,
    summary: 'Pins a message above the viewer chat; without id, unpins',
    handler: async (body, { caller, request, t }) => {
      const scope = await scopeOf(body, caller, request);
      const { broadcast, message } = await pinMessage(context, scope, body.id);
      const [pinned] = message ? await describeMessages(context, scope, [message]) : [];
      sockets.toMeeting(scope.meeting.id, {
        type: 'pinned.changed',
        broadcast_id: broadcast.id,
        message: pinned ?? null,
      });
      return done(t('viewer_chat.pinned'));
    },
  });

  apiRoute(app, {
    name: 'set-viewer-chat-slow-mode.php',
    tag,
    summary: 'Sets slow mode: seconds each viewer waits between messages (0 turns it off)',
    handler: async (body, { caller, request, t }) => {
      const scope = await scopeOf(body, caller, request);
      const broadcast = await setSlowMode(context, scope, body.seconds);
      sockets.toMeeting(scope.meeting.id, {
        type: 'slow_mode.changed',
        broadcast_id: broadcast.id,
        seconds: body.seconds,
      });
      return done(t('viewer_chat.slow_mode_set'));
    },
  });

  apiRoute(app, {
    name: 'show-viewer-chat-banner.php',
    tag,
    summary: 'Puts a viewer-chat message on the stream as the lower-third banner; without id, clears the banner',
    handler: async (body, { caller, request, t }) => {
      const scope = await scopeOf(body, caller, request);
      await showAsBanner(context, scope, body.id);
      return done(t(body.id === undefined ? 'viewer_chat.banner_cleared' : 'viewer_chat.banner_shown'));
    },
  });
}
