import { ROLE, type Language } from '@meetcast/contracts';
import {
  and,
  channelFollowers,
  channels,
  count,
  desc,
  eq,
  gt,
  isNull,
  meetings,
  sessions,
  sql,
  users,
} from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import { CODE_LIFETIME_MINUTES, issueCode } from '../accounts/codes.js';
import { deleteUsers, disableUsers, enableUsers, setUserRole } from '../accounts/user-records.js';
import type { AppContext } from '../context.js';
import { apiRoute, done, success } from '../http/api-route.js';
import { conflict, notFound } from '../http/app-error.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { requestLanguage } from '../http/request-language.js';
import { translate } from '../i18n/messages.js';
import { actorOf, writeAudit } from './audit.js';
import { assertAdministratorsRemain, findUsers, listUsers, toAdminUser } from './admin-users.js';
import { pageHandler } from './list-query.js';
import { endMeetings } from '../rooms/end-meetings.js';
import { toEpochSeconds } from '../platform/time.js';

const USER_MEETINGS_SHOWN = 50;

export function registerAdminUserRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'admin';

  apiRoute(app, {
    name: 'admin-get-users.php',
    tag,
    summary: 'Users: search (name, e-mail, id), filter by role and status, sort and page',
    handler: pageHandler((query, slice) => listUsers(context, query, slice)),
  });

  apiRoute(app, {
    name: 'admin-get-user.php',
    tag,
    summary: 'One user with their meetings (latest first) and their channel',
    handler: async (body, { t }) => {
      const [user] = await context.db.select().from(users).where(eq(users.id, body.id)).limit(1);
      if (!user) throw notFound('admin.user_not_found');
      const [hosted, [meetingTotal], [sessionTotal], [channel]] = await Promise.all([
        context.db
          .select()
          .from(meetings)
          .where(eq(meetings.hostId, user.id))
          .orderBy(desc(meetings.startTime), desc(meetings.id))
          .limit(USER_MEETINGS_SHOWN),
        context.db.select({ total: count() }).from(meetings).where(eq(meetings.hostId, user.id)),
        context.db
          .select({ total: count() })
          .from(sessions)
          .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()))),
        context.db
          .select({
            channel: channels,
            followers: sql<number>`(select count(*)::int from ${channelFollowers} where ${channelFollowers.channelId} = ${channels.id})`,
          })
          .from(channels)
          .where(eq(channels.ownerId, user.id))
          .limit(1),
      ]);
      return success(t('admin.user_ok'), {
        data: {
          user: toAdminUser(user, meetingTotal?.total ?? 0),
          active_sessions: user.disabledAt ? 0 : (sessionTotal?.total ?? 0),
          meetings: hosted.map((meeting) => ({
            id: meeting.id,
            name: meeting.name,
            url_slug: meeting.slug,
            start_time: toEpochSeconds(meeting.startTime),
            end_time: toEpochSeconds(meeting.endTime),
            repeat: meeting.repeat,
            state: meeting.state,
          })),
          channel: channel
            ? {
                id: channel.channel.id,
                name: channel.channel.name,
                slug: channel.channel.slug,
                is_hidden: channel.channel.hiddenAt !== null,
                followers: channel.followers,
              }
            : null,
        },
      });
    },
  });

  apiRoute(app, {
    name: 'admin-update-user-role.php',
    tag,
    summary:
      'Make a user an administrator (role_id 1) or a regular user (2); your own role and the last administrator are protected',
    handler: async (body, { request, caller: session }) => {
      const language = requestLanguage(request);
      const roleId = body.role_id === ROLE.admin ? ROLE.admin : ROLE.user;
      if (body.id === session.user.id && roleId !== ROLE.admin) throw conflict('admin.cannot_demote_self');
      const changed = await context.db.transaction(async (tx) => {
        if (roleId !== ROLE.admin) await assertAdministratorsRemain(tx, [body.id]);
        const [target] = await findUsers(tx, [body.id]);
        if (!target) throw notFound('admin.user_not_found');
        if (target.roleId === roleId) return target;
        await setUserRole(tx, target.id, roleId);
        await writeAudit(tx, actorOf(session, request), [
          {
            action: 'user.role_changed',
            targetType: 'user',
            targetId: target.id,
            details: { email: target.email, from: target.roleId, to: roleId },
          },
        ]);
        return target;
      });
      // Sessions cached anywhere pick the new role up at once.
      await context.sessions.forgetUser(changed.id);
      return done(translate(language, 'admin.role_updated', { username: changed.username }));
    },
  });

  apiRoute(app, {
    name: 'admin-disable-users.php',
    tag,
    summary: 'Disable accounts (bulk): their sessions end at once and sign-in is refused',
    handler: async (body, { request, caller: session, t }) => {
      const ids = [...new Set(body.ids)];
      if (ids.includes(session.user.id)) throw conflict('admin.cannot_disable_self');
      const disabled = await context.db.transaction(async (tx) => {
        await assertAdministratorsRemain(tx, ids);
        const rows = await disableUsers(tx, ids);
        await writeAudit(
          tx,
          actorOf(session, request),
          rows.map((row) => ({
            action: 'user.disabled',
            targetType: 'user',
            targetId: row.id,
            details: { email: row.email },
          })),
        );
        return rows.map((row) => row.id);
      });
      for (const id of disabled) await context.sessions.revokeAllForUser(id);
      return success(t('admin.users_disabled', { count: disabled.length }), {
        ids: disabled,
      });
    },
  });

  apiRoute(app, {
    name: 'admin-enable-users.php',
    tag,
    summary: 'Enable disabled accounts (bulk)',
    handler: async (body, { request, caller: session, t }) => {
      const ids = [...new Set(body.ids)];
      const enabled = await context.db.transaction(async (tx) => {
        const rows = await enableUsers(tx, ids);
        await writeAudit(
          tx,
          actorOf(session, request),
          rows.map((row) => ({
            action: 'user.enabled',
            targetType: 'user',
            targetId: row.id,
            details: { email: row.email },
          })),
        );
        return rows.map((row) => row.id);
      });
      for (const id of enabled) await context.sessions.forgetUser(id);
      return success(t('admin.users_enabled', { count: enabled.length }), {
        ids: enabled,
      });
    },
  });

  apiRoute(app, {
    name: 'admin-delete-users.php',
    tag,
    summary: 'Delete accounts (bulk) with their meetings, channel and contacts; the last administrator is protected',
    handler: async (body, { request, caller: session, t }) => {
      const ids = [...new Set(body.ids)];
      // Their live meetings cascade away with them: the rooms are torn down with the placements read before.
      const liveMeetings = await new MeetingRepository(context.db).liveIdsHostedBy(ids);
      const deleted = await endMeetings(context, liveMeetings, 'deleted', () =>
        context.db.transaction(async (tx) => {
          await assertAdministratorsRemain(tx, ids);
          const rows = await deleteUsers(tx, ids);
          await writeAudit(
            tx,
            actorOf(session, request),
            rows.map((row) => ({
              action: 'user.deleted',
              targetType: 'user',
              targetId: row.id,
              details: { email: row.email, username: row.username },
            })),
          );
          return rows.map((row) => row.id);
        }),
      );
      for (const id of deleted) await context.sessions.forgetUser(id);
      return success(t('admin.users_deleted', { count: deleted.length }), {
        ids: deleted,
      });
    },
  });

  apiRoute(app, {
    name: 'admin-send-password-reset.php',
    tag,
    summary: 'E-mail a user a password reset code (as forgot-password.php does)',
    handler: async (body, { request, caller: session, t }) => {
      const { user, code } = await context.db.transaction(async (tx) => {
        const [target] = await findUsers(tx, [body.id]);
        if (!target) throw notFound('admin.user_not_found');
        if (target.disabledAt) throw conflict('admin.reset_disabled');
        const issued = await issueCode(tx, target.id, 'reset');
        await writeAudit(tx, actorOf(session, request), [
          {
            action: 'user.password_reset_sent',
            targetType: 'user',
            targetId: target.id,
            details: { email: target.email },
          },
        ]);
        return { user: target, code: issued };
      });
      const language = user.language as Language;
      const params = { code, count: CODE_LIFETIME_MINUTES };
      await context.mailer.send({
        to: user.email,
        subject: translate(language, 'mail.reset_subject', params),
        text: [
          translate(language, 'mail.greeting', { name: user.username }),
          '',
          translate(language, 'admin.mail_reset_note', { url: `${context.config.publicUrl}/reset-password` }),
          '',
          translate(language, 'mail.reset_body', params),
          '',
          translate(language, 'mail.signoff'),
        ].join('\n'),
      });
      return done(t('admin.reset_sent', { email: user.email }));
    },
  });
}
