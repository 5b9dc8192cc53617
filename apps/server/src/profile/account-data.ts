import { ROLE, type Language } from '@meetcast/contracts';
import {
  and,
  calendarEvents,
  channelFollowers,
  brandKits,
  channels,
  chatMessages,
  contactMessages,
  contacts,
  count,
  eq,
  inArray,
  isNull,
  meetingAttendance,
  meetingInvitees,
  meetings,
  notifications,
  or,
  sessions,
  streamConnections,
  users,
  type UserRow,
} from '@meetcast/db';
import { toUserDto } from '../accounts/user-dto.js';
import { deleteUsers } from '../accounts/user-records.js';
import { deleteContactMessagesOf } from '../contact-us/contact-messages.js';
import type { AppContext } from '../context.js';
import { InviteeRepository } from '../meeting-records/invitee-repository.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { badRequest, conflict } from '../http/app-error.js';
import { languageOf, translate } from '../i18n/messages.js';
import { endMeetings } from '../rooms/end-meetings.js';
import { overlayLibrary } from '../streaming/brand-kit-service.js';
import { removeImage } from '../uploads/images.js';
import { confirmPassword, loadUser } from './profile-service.js';
import { escapeHtml } from '../platform/text.js';
import { formatWhen } from '../platform/time.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Everything kept about a person, for "Download my data". Secrets (hashes, tokens, keys) are left out. */
export async function exportMyData(context: AppContext, userId: number) {
  const user = await loadUser(context, userId);
  const db = context.db;
  const hosted = await new MeetingRepository(db).listForOwner(userId);
  const invitations = await db
    .select({
      meeting: meetings.name,
      url_slug: meetings.slug,
      start_time: meetings.startTime,
      email: meetingInvitees.email,
    })
    .from(meetingInvitees)
    .innerJoin(meetings, eq(meetings.id, meetingInvitees.meetingId))
    .where(or(eq(meetingInvitees.userId, userId), eq(meetingInvitees.email, user.email)));
  const [channel] = await db.select().from(channels).where(eq(channels.ownerId, userId));
  const followed = await db
    .select({ name: channels.name, slug: channels.slug, since: channelFollowers.createdAt })
    .from(channelFollowers)
    .innerJoin(channels, eq(channels.id, channelFollowers.channelId))
    .where(eq(channelFollowers.userId, userId));
  return {
    exported_at: new Date().toISOString(),
    account: {
      ...toUserDto(user),
      email_verified_at: iso(user.emailVerifiedAt),
      default_meeting_password: user.defaultMeetingPassword,
      reminder_minutes: user.reminderMinutes,
      has_password: user.passwordHash !== null,
    },
    sessions: (await db.select().from(sessions).where(eq(sessions.userId, userId))).map((row) => ({
      user_agent: row.userAgent,
      ip_address: row.ipAddress,
      created_at: iso(row.createdAt),
      last_used_at: iso(row.lastUsedAt),
      expires_at: iso(row.expiresAt),
      revoked_at: iso(row.revokedAt),
    })),
    contacts: (
      await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.ownerId, userId), isNull(contacts.deletedAt)))
    ).map((row) => ({
      name: row.name,
      email: row.email,
      phone: row.phone,
      company: row.company,
      notes: row.notes,
      is_favourite: row.isFavourite,
      created_at: iso(row.createdAt),
    })),
    meetings_hosted: hosted.map((row) => ({
      name: row.name,
      url_slug: row.slug,
      description: row.description,
      start_time: iso(row.startTime),
      end_time: iso(row.endTime),
      repeat: row.repeat,
      is_private: row.isPrivate,
      state: row.state,
    })),
    invitations: invitations.map((row) => ({ ...row, start_time: iso(row.start_time) })),
    attendance: await db
      .select({
        meeting_id: meetingAttendance.meetingId,
        joined_at: meetingAttendance.joinedAt,
        left_at: meetingAttendance.leftAt,
      })
      .from(meetingAttendance)
      .where(eq(meetingAttendance.userId, userId)),
    chat_messages: await db
      .select({ meeting_id: chatMessages.meetingId, body: chatMessages.body, created_at: chatMessages.createdAt })
      .from(chatMessages)
      .where(eq(chatMessages.userId, userId)),
    channel: channel
      ? {
          name: channel.name,
          slug: channel.slug,
          description: channel.description,
          category: channel.category,
          links: channel.links,
          visibility: channel.visibility,
          avatar: channel.avatar,
          cover: channel.cover,
          created_at: iso(channel.createdAt),
        }
      : null,
    channels_followed: followed.map((row) => ({ ...row, since: iso(row.since) })),
    calendar_events: await db
      .select({
        title: calendarEvents.title,
        description: calendarEvents.description,
        start_time: calendarEvents.startTime,
        end_time: calendarEvents.endTime,
        is_all_day: calendarEvents.isAllDay,
      })
      .from(calendarEvents)
      .where(eq(calendarEvents.userId, userId)),
    stream_connections: await db
      .select({
        platform: streamConnections.platform,
        account_name: streamConnections.name,
        created_at: streamConnections.createdAt,
      })
      .from(streamConnections)
      .where(eq(streamConnections.userId, userId)),
    notifications: await db
      .select({ text: notifications.text, created_at: notifications.createdAt })
      .from(notifications)
      .where(eq(notifications.userId, userId)),
    contact_us_messages: await db
      .select({
        subject: contactMessages.subject,
        message: contactMessages.message,
        created_at: contactMessages.createdAt,
      })
      .from(contactMessages)
      .where(or(eq(contactMessages.userId, userId), eq(contactMessages.email, user.email))),
  };
}

/** Tells everyone invited to a host's upcoming meetings that they are cancelled; returns how many were told. */
async function cancelHostedMeetings(context: AppContext, host: UserRow) {
  const repository = new MeetingRepository(context.db);
  const upcoming = await repository.listUpcomingForOwner(host.id);
  if (upcoming.length === 0) return 0;
  const ids = upcoming.map((meeting) => meeting.id);
  await endMeetings(context, ids, 'cancelled', () => repository.cancel(ids));
  const invitees = await context.db
    .select({ invitee: meetingInvitees, user: users })
    .from(meetingInvitees)
    .leftJoin(users, eq(users.id, meetingInvitees.userId))
    .where(
      inArray(
        meetingInvitees.meetingId,
        upcoming.map((meeting) => meeting.id),
      ),
    );
  let told = 0;
  for (const { invitee, user } of invitees) {
    if (invitee.email === host.email || user?.id === host.id) continue;
    const meeting = upcoming.find((row) => row.id === invitee.meetingId);
    if (!meeting) continue;
    const language: Language = user ? languageOf(user) : languageOf(host);
    const params = {
      host: host.username,
      meeting: meeting.name,
      when: formatWhen(meeting.startTime, user?.timeZone ?? meeting.timeZone, language),
    };
    if (user) {
      await context.notifier.notify(
        user.id,
        translate(language, 'profile.meeting_cancelled_notification', {
          host: escapeHtml(params.host),
          meeting: escapeHtml(params.meeting),
          when: escapeHtml(params.when),
        }),
      );
    }
    context.mailer
      .send({
        to: invitee.email,
        subject: translate(language, 'profile.meeting_cancelled_subject', params),
        text: [
          translate(language, 'mail.greeting', { name: user?.username ?? invitee.email }),
          '',
          translate(language, 'profile.meeting_cancelled_body', params),
          '',
          translate(language, 'mail.signoff'),
        ].join('\n'),
      })
      .catch((error: unknown) => context.log.error({ err: error }, 'sending the cancellation failed'));
    told++;
  }
  return told;
}

/**
 * Deletes an account for good after the password (or, without one, the typed e-mail address)
 * confirms it: upcoming meetings it hosts are cancelled and their invitees told, pictures are
 * removed from disk, and the rows go (the database cascades from the user).
 */
export async function deleteAccount(
  context: AppContext,
  user: UserRow,
  input: { password?: string | undefined; confirm_email?: string | undefined },
) {
  const current = await loadUser(context, user.id);
  if (current.passwordHash === null) {
    if ((input.confirm_email ?? '').trim().toLowerCase() !== current.email)
      throw badRequest('profile.confirm_email_wrong');
  } else {
    await confirmPassword(context, current, input.password);
  }
  if (current.roleId === ROLE.admin) {
    const [{ admins } = { admins: 0 }] = await context.db
      .select({ admins: count() })
      .from(users)
      .where(and(eq(users.roleId, ROLE.admin), isNull(users.disabledAt)));
    if (admins <= 1) throw conflict('profile.last_admin');
  }
  await cancelHostedMeetings(context, current);
  const [channel] = await context.db.select().from(channels).where(eq(channels.ownerId, current.id));
  const [brand] = channel ? await context.db.select().from(brandKits).where(eq(brandKits.channelId, channel.id)) : [];
  const library = channel ? await overlayLibrary(context, channel.id) : [];
  await context.sessions.revokeAllForUser(current.id);
  // A live meeting past its planned end is not "upcoming", but it goes with the account all the same.
  const stillLive = await new MeetingRepository(context.db).liveIdsHostedBy([current.id]);
  await endMeetings(context, stillLive, 'deleted', () =>
    context.db.transaction(async (tx) => {
      await deleteContactMessagesOf(tx, { userId: current.id, email: current.email });
      await new InviteeRepository(tx).removeAddressEverywhere(current.email);
      await deleteUsers(tx, [current.id]);
    }),
  );
  await removeImage(context, current.avatar);
  await removeImage(context, channel?.avatar);
  await removeImage(context, channel?.cover);
  for (const picture of [brand?.logo, brand?.background, brand?.overlay, ...library.map((item) => item.path)]) {
    await removeImage(context, picture);
  }
}
