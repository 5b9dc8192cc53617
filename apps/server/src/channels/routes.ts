import { ChannelSlugSchema } from '@meetcast/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestToken } from '../accounts/authenticate.js';
import type { AppContext } from '../context.js';
import { apiRoute, done, success } from '../http/api-route.js';
import { badRequest } from '../http/app-error.js';
import { enforceLimits } from '../platform/limits.js';
import { registerBroadcastReminderRoutes } from './broadcast-reminder-routes.js';
import { registerOembedRoute } from './oembed-route.js';
import {
  checkChannelSlug,
  createChannel,
  followChannel,
  getChannelPage,
  getEditableChannel,
  getMyChannel,
  listChannels,
  scheduleBroadcast,
  unfollowChannel,
  updateChannel,
  uploadChannelImage,
} from './channel-service.js';

const UPLOADS_BY_ACCOUNT = { name: 'channel-upload-account', limit: 30, windowSeconds: 3600 };
const BROADCASTS_BY_ACCOUNT = { name: 'channel-broadcast-account', limit: 30, windowSeconds: 3600 };

/** Public calls work without a token; with a valid one they also say what the caller may do. */
async function optionalViewer(context: AppContext, request: FastifyRequest) {
  const token = requestToken(request);
  if (!token || token.length > 512) return undefined;
  return (await context.sessions.verify(token))?.user;
}

export function registerChannelRoutes(app: FastifyInstance, context: AppContext) {
  registerOembedRoute(app, context);
  registerBroadcastReminderRoutes(app, context);
  const tag = 'channels';

  apiRoute(app, {
    name: 'check-channel-slug.php',
    tag,
    summary: "Is this channel address valid and free? (the caller's own channel keeps its slug)",
    handler: async (body, { caller: { user }, t }) => {
      const parsed = ChannelSlugSchema.safeParse(body.slug);
      if (!parsed.success) throw badRequest('channels.slug_invalid');
      const mine = await getMyChannel(context, user);
      await checkChannelSlug(context, parsed.data, mine?.id);
      return done(t('channels.slug_free'));
    },
  });

  apiRoute(app, {
    name: 'create-channel.php',
    tag,
    summary: "Create the caller's channel (one per user); `links` is a JSON array of {label, url}",
    handler: async (body, { caller: { user }, t }) => {
      return success(t('channels.created'), await createChannel(context, user, body));
    },
  });

  apiRoute(app, {
    name: 'update-channel.php',
    tag,
    summary: 'Change a channel: its owner or an administrator only (403 for anyone else)',
    handler: async (body, { caller: { user }, t }) => {
      return success(t('channels.updated'), await updateChannel(context, user, body.id, body));
    },
  });

  apiRoute(app, {
    name: 'get-edit-channel.php',
    tag,
    summary: 'A channel with everything the edit form needs: its owner or an administrator only',
    handler: async (body, { caller: { user }, t }) => {
      return success(t('channels.loaded'), await getEditableChannel(context, user, body.id));
    },
  });

  apiRoute(app, {
    name: 'upload-channel-image.php',
    tag,
    summary: 'Upload the channel avatar or cover (multipart `file`: JPEG, PNG or WebP up to 5 MB)',
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[UPLOADS_BY_ACCOUNT, String(user.id)]]);
      const channel = await uploadChannelImage(context, user, body.id, body.kind, body.file);
      return success(t('channels.image_saved'), channel);
    },
  });

  apiRoute(app, {
    name: 'get-my-channel.php',
    tag,
    summary:
      "The caller's channel with followers, live, upcoming and past broadcasts; data.data is null before one exists",
    handler: async (_body, { caller: { user }, t }) => {
      return success(t('channels.loaded'), { data: await getMyChannel(context, user) });
    },
  });

  apiRoute(app, {
    name: 'get-channels.php',
    tag,
    summary: 'Browse and search public channels, live ones first (token optional; `following=1` for followed ones)',
    handler: async (body, { request, t }) => {
      const viewer = await optionalViewer(context, request);
      return success(t('channels.list_ok'), await listChannels(context, viewer, body));
    },
  });

  apiRoute(app, {
    name: 'get-channel.php',
    tag,
    summary: 'A channel by its slug or a broadcast by its meeting slug; no token needed (hidden channels: 404)',
    handler: async (body, { request, t }) => {
      const viewer = await optionalViewer(context, request);
      return success(t('channels.loaded'), await getChannelPage(context, viewer, body.slug));
    },
  });

  apiRoute(app, {
    name: 'follow-channel.php',
    tag,
    summary: 'Follow a channel: its scheduled and live broadcasts are notified',
    handler: async (body, { caller: { user }, t }) => {
      const { name, state } = await followChannel(context, user, body.id);
      return success(t('channels.followed', { name }), state);
    },
  });

  apiRoute(app, {
    name: 'unfollow-channel.php',
    tag,
    summary: 'Stop following a channel',
    handler: async (body, { caller: { user }, t }) => {
      const { name, state } = await unfollowChannel(context, user, body.id);
      return success(t('channels.unfollowed', { name }), state);
    },
  });

  apiRoute(app, {
    name: 'schedule-broadcast.php',
    tag,
    summary: "Schedule a broadcast on the caller's channel: a public meeting; followers are notified",
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[BROADCASTS_BY_ACCOUNT, String(user.id)]]);
      return success(t('channels.broadcast_scheduled'), await scheduleBroadcast(context, user, body));
    },
  });
}
