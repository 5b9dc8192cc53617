import { and, desc, eq, notifications } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import type { AccountsContext } from '../accounts/accounts-context.js';
import { apiRoute, success } from '../http/api-route.js';
import { notFound } from '../http/app-error.js';
import { toEpochSeconds } from '../platform/time.js';

const LIST_LIMIT = 100;

async function listFor(context: AccountsContext, userId: number) {
  const rows = await context.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(LIST_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    text: row.text,
    created_at: toEpochSeconds(row.createdAt),
  }));
}

export function registerNotificationRoutes(app: FastifyInstance, context: AccountsContext) {
  apiRoute(app, {
    name: 'get-user-notification.php',
    tag: 'notifications',
    summary: "The signed-in user's notifications, newest first",
    handler: async (_body, { caller: { user }, t }) => {
      return success(t('notifications.list_ok'), {
        data: await listFor(context, user.id),
      });
    },
  });

  apiRoute(app, {
    name: 'clear-user-notification.php',
    tag: 'notifications',
    summary: 'Clear one notification and return the remaining list',
    handler: async (body, { caller: { user }, t }) => {
      const deleted = await context.db
        .delete(notifications)
        .where(and(eq(notifications.id, body.id), eq(notifications.userId, user.id)))
        .returning({ id: notifications.id });
      if (deleted.length === 0) throw notFound('notifications.not_found');
      return success(t('notifications.cleared'), {
        data: await listFor(context, user.id),
      });
    },
  });
}
