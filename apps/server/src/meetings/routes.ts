import { PASSWORD_FLAG } from '@meetcast/contracts';
import { eq, users, type UserRow } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, done, success } from '../http/api-route.js';
import { conflict, forbidden, notFound } from '../http/app-error.js';
import { RATE_LIMITS, enforceLimits } from '../platform/limits.js';
import { addMeetingEvent, isScheduleChange, newCalendar } from './ics.js';
import { listInvitees, replaceInvitees, resolveInvitees, type ResolvedInvitee } from './invitees.js';
import { createInstantMeeting } from '../meeting-records/instant-meetings.js';
import { changesAudience, notifyMeetingAudienceChanged } from '../meeting-records/meeting-audience.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { endMeetings } from '../rooms/end-meetings.js';
import { checkMeetingValues, checkSlugFormat, ensureSlugFree } from './meeting-rules.js';
import { MeetingDetails, findVisibleMeeting, type MeetingRow, type Viewer } from './meeting-store.js';
import { MeetingMessenger } from './messenger.js';
import { isOccurrenceStart, isRepeating } from './occurrences.js';
import { hashPassword } from '../platform/hashing.js';

export const viewerOf = (user: UserRow): Viewer => ({ id: user.id, email: user.email.toLowerCase() });

export function registerMeetingRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'meetings';
  const { db } = context;
  const messenger = new MeetingMessenger(context);
  const repository = new MeetingRepository(db);

  /** Messages go out after the answer; a mail server that is down must not fail the call. */
  const inBackground = (work: Promise<unknown>) => {
    work.catch((error: unknown) => context.log.warn({ err: error }, 'meeting messages failed'));
  };

  /** The meeting as its host may change it: 404 when the caller cannot see it, 403 when only invited. */
  async function hostedMeeting(user: UserRow, id: number): Promise<MeetingRow> {
    const row = await findVisibleMeeting(db, viewerOf(user), id);
    if (!row) throw notFound('meetings.not_found');
    if (row.hostId !== user.id) throw forbidden('meetings.host_only');
    return row;
  }

  /** The session cache may hold an older copy; meeting defaults (zone, password) are read fresh. */
  async function freshUser(user: UserRow): Promise<UserRow> {
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    return row ?? user;
  }

  async function meetingDto(user: UserRow, row: MeetingRow) {
    return (await MeetingDetails.load(db, viewerOf(user), [row])).meeting(row);
  }

  apiRoute(app, {
    name: 'check-meet-name.php',
    tag,
    summary: 'Check that a meeting link (slug) is well-formed and free',
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[RATE_LIMITS.slugCheckByAccount, String(user.id)]]);
      const slug = checkSlugFormat(body.name);
      if (body.id !== undefined) {
        const own = await findVisibleMeeting(db, viewerOf(user), body.id);
        await ensureSlugFree(db, slug, own?.hostId === user.id ? own.id : undefined);
      } else {
        await ensureSlugFree(db, slug);
      }
      return done(t('meetings.slug_available'));
    },
  });

  apiRoute(app, {
    name: 'add-meeting.php',
    tag,
    summary: 'Schedule a meeting; invitees get an e-mail with a calendar file and a notification',
    handler: async (body, { caller, t }) => {
      const user = await freshUser(caller.user);
      await enforceLimits(context, [[RATE_LIMITS.meetingWriteByAccount, String(user.id)]]);
      const values = checkMeetingValues(body, { now: new Date(), defaultTimeZone: user.timeZone });
      const invitees = (await resolveInvitees(db, user, body.invitees, body.invitee_contacts)) ?? [];
      await ensureSlugFree(db, values.slug);
      const row = await repository.create({
        hostId: user.id,
        name: values.name,
        slug: values.slug,
        description: values.description,
        isSchedule: values.isSchedule,
        isPrivate: values.isPrivate,
        isPassword: values.isPassword,
        passwordHash: values.newPassword ? await hashPassword(values.newPassword) : null,
        passwordPlain: values.newPassword ?? null,
        startTime: values.startTime,
        endTime: values.endTime,
        repeat: values.repeat,
        timeZone: values.timeZone,
      });
      if (invitees.length > 0) {
        await replaceInvitees(db, row.id, invitees);
        inBackground(messenger.sendToInvitees('invite', row, user, invitees));
      }
      return success(t('meetings.created'), await meetingDto(user, row));
    },
  });

  apiRoute(app, {
    name: 'add-instant-meeting.php',
    tag,
    summary: 'Start a meeting now; a password is generated when the user asks for one by default',
    handler: async (body, { caller, t }) => {
      const user = await freshUser(caller.user);
      await enforceLimits(context, [[RATE_LIMITS.meetingWriteByAccount, String(user.id)]]);
      const slug = checkSlugFormat(body.slug);
      await ensureSlugFree(db, slug);
      const { meeting, password } = await createInstantMeeting(db, {
        hostId: user.id,
        name: body.name,
        slug,
        timeZone: user.timeZone,
        withPassword: user.defaultMeetingPassword,
      });
      return success(t('meetings.instant_created'), {
        url_slug: meeting.slug,
        ...(password ? { password } : {}),
      });
    },
  });

  apiRoute(app, {
    name: 'get-meeting.php',
    tag,
    summary: 'One meeting the caller hosts or is invited to',
    handler: async (body, { caller: { user }, t }) => {
      const row = await findVisibleMeeting(db, viewerOf(user), body.id);
      if (!row) throw notFound('meetings.not_found');
      return success(t('meetings.loaded'), await meetingDto(user, row));
    },
  });

  apiRoute(app, {
    name: 'edit-meeting.php',
    tag,
    summary: 'Change a meeting (host only); every rule of add-meeting applies again',
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[RATE_LIMITS.meetingWriteByAccount, String(user.id)]]);
      const previous = await hostedMeeting(user, body.id);
      if (previous.cancelledAt) throw conflict('meetings.cancelled_locked');
      const values = checkMeetingValues(body, { now: new Date(), defaultTimeZone: user.timeZone, previous });
      const wanted = await resolveInvitees(db, user, body.invitees, body.invitee_contacts);
      if (values.slug !== previous.slug) await ensureSlugFree(db, values.slug, previous.id);
      const keepsPassword = values.isPassword === PASSWORD_FLAG.yes && !values.newPassword;
      const row = await repository.edit(previous.id, {
        name: values.name,
        slug: values.slug,
        description: values.description,
        isSchedule: values.isSchedule,
        isPrivate: values.isPrivate,
        isPassword: values.isPassword,
        passwordHash: keepsPassword
          ? previous.passwordHash
          : values.newPassword
            ? await hashPassword(values.newPassword)
            : null,
        passwordPlain: keepsPassword ? previous.passwordPlain : (values.newPassword ?? null),
        startTime: values.startTime,
        endTime: values.endTime,
        repeat: values.repeat,
        timeZone: values.timeZone,
        scheduleSequence: previous.scheduleSequence + (isScheduleChange(previous, values) ? 1 : 0),
      });
      if (!row) throw notFound('meetings.not_found');
      // Made private or given another password: those who watched its broadcast publicly stop now.
      if (changesAudience(previous, row)) await notifyMeetingAudienceChanged(context, row.id);
      const changes = wanted
        ? await replaceInvitees(db, row.id, wanted)
        : { added: [] as ResolvedInvitee[], kept: await listInvitees(db, row.id), removed: [] as ResolvedInvitee[] };
      const timeChanged =
        row.startTime.getTime() !== previous.startTime.getTime() ||
        row.endTime.getTime() !== previous.endTime.getTime() ||
        row.repeat !== previous.repeat ||
        row.slug !== previous.slug ||
        row.timeZone !== previous.timeZone;
      const updated = row;
      inBackground(
        (async () => {
          await messenger.sendToInvitees('invite', updated, user, changes.added);
          if (timeChanged) await messenger.sendToInvitees('update', updated, user, changes.kept);
          await messenger.sendToInvitees('cancel', updated, user, changes.removed);
        })(),
      );
      return success(t('meetings.updated'), await meetingDto(user, row));
    },
  });

  apiRoute(app, {
    name: 'cancel-meeting.php',
    tag,
    summary: 'Cancel one occurrence (occurrence_start) or the whole meeting (host only); invitees are told',
    handler: async (body, { caller: { user }, t }) => {
      const row = await hostedMeeting(user, body.id);
      if (row.cancelledAt) throw conflict('meetings.already_cancelled');
      const invitees = await listInvitees(db, row.id);
      if (body.occurrence_start !== undefined && isRepeating(row.repeat)) {
        const start = new Date(body.occurrence_start * 1000);
        if (!isOccurrenceStart(row, start)) throw notFound('meetings.occurrence_not_found');
        if (!(await repository.cancelOccurrence(row.id, start)))
          throw conflict('meetings.occurrence_already_cancelled');
        const touched = await repository.raiseScheduleSequence(row.id);
        inBackground(messenger.sendToInvitees('occurrence_cancel', touched ?? row, user, invitees, start));
        return done(t('meetings.occurrence_cancelled'));
      }
      if (body.occurrence_start !== undefined && body.occurrence_start * 1000 !== row.startTime.getTime()) {
        throw notFound('meetings.occurrence_not_found');
      }
      const [cancelled] = await endMeetings(context, [row.id], 'cancelled', () => repository.cancel([row.id]));
      inBackground(messenger.sendToInvitees('cancel', cancelled ?? row, user, invitees));
      return done(t('meetings.series_cancelled'));
    },
  });

  apiRoute(app, {
    name: 'delete-meeting.php',
    tag,
    summary: 'Delete a meeting and its history (host only); invitees of a coming meeting are told',
    handler: async (body, { caller: { user }, t }) => {
      const row = await hostedMeeting(user, body.id);
      const invitees = await listInvitees(db, row.id);
      const details = await MeetingDetails.load(db, viewerOf(user), [row]);
      const now = new Date();
      const isComing = details.occurrences(row, now, new Date(now.getTime() + 366 * 86_400_000), 1).length > 0;
      // A live meeting's people are told and its room torn down, with the placement read before the delete.
      await endMeetings(context, [row.id], 'deleted', () => repository.delete(row.id));
      if (isComing) inBackground(messenger.sendToInvitees('cancel', { ...row, cancelledAt: now }, user, invitees));
      return done(t('meetings.deleted'));
    },
  });

  apiRoute(app, {
    name: 'get-meeting-ics.php',
    tag,
    summary: 'The calendar file (ICS) of one meeting, with its repeat rule and cancelled occurrences',
    handler: async (body, { caller: { user }, t }) => {
      const viewer = viewerOf(user);
      const row = await findVisibleMeeting(db, viewer, body.id);
      if (!row) throw notFound('meetings.not_found');
      const details = await MeetingDetails.load(db, viewer, [row]);
      const [host] = await db.select().from(users).where(eq(users.id, row.hostId));
      const calendar = newCalendar(row.name);
      addMeetingEvent(calendar, context.config.publicUrl, {
        row,
        hostName: host?.username ?? '',
        hostEmail: host?.email ?? '',
        cancelled: details.cancelled.get(row.id) ?? [],
        // Invitees learn who else is invited only from the host.
        invitees: row.hostId === user.id ? (await listInvitees(db, row.id)).map((invitee) => invitee.email) : [],
      });
      return success(t('meetings.ics_ok'), {
        filename: `${row.slug}.ics`,
        content: calendar.toString(),
      });
    },
  });
}
