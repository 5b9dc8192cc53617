import { eq, users, type UserRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { badRequest, conflict, notFound } from '../http/app-error.js';
import { languageOf, translate } from '../i18n/messages.js';
import { enforceLimits } from '../platform/limits.js';
import { requireContact } from './contact-service.js';
import { MeetingMessenger } from '../meetings/messenger.js';
import { createInstantMeeting } from '../meeting-records/instant-meetings.js';
import { InviteeRepository } from '../meeting-records/invitee-repository.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { toEpochSeconds } from '../platform/time.js';
import { escapeHtml } from '../platform/text.js';

const CALLS_BY_ACCOUNT = { name: 'contact-call-account', limit: 20, windowSeconds: 600 };
const INVITES_BY_ACCOUNT = { name: 'contact-invite-account', limit: 60, windowSeconds: 600 };

export function roomUrl(context: AppContext, slug: string, password?: string | null) {
  const query = password ? `?password=${encodeURIComponent(password)}` : '';
  return `${context.config.publicUrl}/room/${encodeURIComponent(slug)}${query}`;
}

async function userById(context: AppContext, id: number) {
  const [row] = await context.db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** "Call now": an instant meeting with the contact's Meetcast user, who gets a join link in the app. */
export async function callContact(context: AppContext, caller: UserRow, contactId: number) {
  const { contact, user } = await requireContact(context, caller.id, contactId);
  if (!user?.id || !contact.email) throw badRequest('contacts.not_a_user');
  if (user.id === caller.id) throw badRequest('contacts.call_self');
  await enforceLimits(context, [[CALLS_BY_ACCOUNT, String(caller.id)]]);
  const callee = await userById(context, user.id);
  if (!callee) throw badRequest('contacts.not_a_user');

  const { meeting, password } = await createInstantMeeting(context.db, {
    hostId: caller.id,
    name: translate(languageOf(caller), 'contacts.call_meeting_name', { name: callee.username }),
    timeZone: caller.timeZone,
    withPassword: caller.defaultMeetingPassword,
  });
  await new InviteeRepository(context.db).add(meeting.id, [{ email: contact.email, userId: callee.id }]);
  await context.notifier.notify(
    callee.id,
    translate(languageOf(callee), 'contacts.call_notification', {
      name: escapeHtml(caller.username),
      url: escapeHtml(roomUrl(context, meeting.slug, password)),
    }),
  );
  return { url_slug: meeting.slug, meeting_id: meeting.id, ...(password ? { password } : {}) };
}

export async function invitableMeetings(context: AppContext, hostId: number) {
  const rows = await new MeetingRepository(context.db).listUpcomingForOwner(hostId, 100);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    url_slug: row.slug,
    start_time: toEpochSeconds(row.startTime),
    end_time: toEpochSeconds(row.endTime),
  }));
}

/** Adds a contact to one of the caller's upcoming meetings and invites them the way the meetings feature does. */
export async function inviteContact(context: AppContext, host: UserRow, contactId: number, meetingId: number) {
  const { contact, user } = await requireContact(context, host.id, contactId);
  if (!contact.email) throw badRequest('contacts.no_email');
  const meeting = await new MeetingRepository(context.db).findUpcomingForOwner(host.id, meetingId);
  if (!meeting) throw notFound('contacts.meeting_not_found');
  await enforceLimits(context, [[INVITES_BY_ACCOUNT, String(host.id)]]);
  const added = await new InviteeRepository(context.db).add(meeting.id, [
    { email: contact.email, userId: user?.id ?? null },
  ]);
  if (added === 0) throw conflict('contacts.already_invited', { name: contact.name });

  // The meetings feature's messenger: e-mail with the join link and a calendar file, and an in-app notification.
  await new MeetingMessenger(context).sendToInvitees('invite', meeting, host, [
    { email: contact.email, userId: user?.id ?? null },
  ]);
}
