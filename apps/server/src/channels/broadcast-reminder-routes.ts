import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, success } from '../http/api-route.js';
import { enforceLimits } from '../platform/limits.js';
import { getBroadcastReminder, setBroadcastReminder } from './broadcast-reminders.js';

/** "Notify me" turned on and off: each change may end in an e-mail, so an account has a budget. */
const REMINDER_CHANGES_BY_ACCOUNT = { name: 'broadcast-reminder-account', limit: 120, windowSeconds: 3600 };

/** "Notify me" on a channel's scheduled broadcast (ADR 048): signed-in viewers, about themselves only. */
export function registerBroadcastReminderRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'channels';

  apiRoute(app, {
    name: 'get-broadcast-reminder.php',
    tag,
    summary: 'Whether the caller asked to be told when this channel broadcast goes live, and whether they were',
    handler: async (body, { caller: { user }, t }) =>
      success(t('channels.reminder_found'), { data: await getBroadcastReminder(context, user, body.meetId) }),
  });

  apiRoute(app, {
    name: 'set-broadcast-reminder.php',
    tag,
    summary:
      'Notify me (on 1) or not (on 0): an e-mail and a notification once, when this scheduled channel broadcast goes live',
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[REMINDER_CHANGES_BY_ACCOUNT, String(user.id)]]);
      const reminder = await setBroadcastReminder(context, user, body.meetId, body.on === 1);
      return success(t(reminder.is_set ? 'channels.reminder_set' : 'channels.reminder_removed'), { data: reminder });
    },
  });
}
