import {
  auditLog,
  calendarEvents,
  channels,
  contactMessages,
  meetingAttendance,
  meetings,
  sessions,
  users,
  eq,
} from '@meetcast/db';
import type { TestServer } from './test-server.js';

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${sequence++}`;

export const HOUR = 3600;

/** Rows the admin tests act on, written straight into the server's database. */
export async function seedMeeting(
  server: TestServer,
  hostId: number,
  options: {
    name?: string;
    startOffset?: number;
    repeat?: number;
    state?: 'scheduled' | 'live' | 'ended';
    present?: number;
  } = {},
) {
  const db = server.built.context.db;
  const start = Math.floor(Date.now() / 1000) + (options.startOffset ?? HOUR);
  const [meeting] = await db
    .insert(meetings)
    .values({
      hostId,
      name: options.name ?? 'Weekly sync',
      slug: unique('meet'),
      isSchedule: 1,
      startTime: new Date(start * 1000),
      endTime: new Date((start + HOUR) * 1000),
      repeat: options.repeat ?? 0,
      state: options.state ?? 'scheduled',
      startedAt: options.state === 'live' ? new Date() : null,
    })
    .returning();
  if (!meeting) throw new Error('meeting insert failed');
  for (let index = 0; index < (options.present ?? 0); index++) {
    await db.insert(meetingAttendance).values({ meetingId: meeting.id, displayName: `Guest ${index}` });
  }
  return meeting;
}

export async function seedChannel(server: TestServer, ownerId: number, name = 'Cooking live') {
  const [channel] = await server.built.context.db
    .insert(channels)
    .values({ ownerId, name, slug: unique('channel') })
    .returning();
  if (!channel) throw new Error('channel insert failed');
  return channel;
}

export async function seedContactMessage(server: TestServer, email = `${unique('visitor')}@example.com`) {
  const [message] = await server.built.context.db
    .insert(contactMessages)
    .values({ name: 'Vera Visitor', email, subject: 'Pricing question', message: 'Hello,\nhow much is it?' })
    .returning();
  if (!message) throw new Error('contact message insert failed');
  return message;
}

export async function seedCalendarEvent(server: TestServer, userId: number, startOffset = 2 * HOUR) {
  const start = Math.floor(Date.now() / 1000) + startOffset;
  const [event] = await server.built.context.db
    .insert(calendarEvents)
    .values({ userId, title: 'Dentist', startTime: new Date(start * 1000), endTime: new Date((start + HOUR) * 1000) })
    .returning();
  if (!event) throw new Error('calendar event insert failed');
  return event;
}

/** Everything an admin call could change, read back so that "nothing changed" can be compared. */
export async function snapshot(server: TestServer) {
  const db = server.built.context.db;
  const [userRows, meetingRows, attendanceRows, channelRows, contactRows, eventRows, auditRows, sessionRows] =
    await Promise.all([
      db.select({ id: users.id, role: users.roleId, disabled: users.disabledAt }).from(users).orderBy(users.id),
      db.select({ id: meetings.id, state: meetings.state }).from(meetings).orderBy(meetings.id),
      db
        .select({ id: meetingAttendance.id, left: meetingAttendance.leftAt })
        .from(meetingAttendance)
        .orderBy(meetingAttendance.id),
      db.select({ id: channels.id, hidden: channels.hiddenAt }).from(channels).orderBy(channels.id),
      db
        .select({ id: contactMessages.id, status: contactMessages.status })
        .from(contactMessages)
        .orderBy(contactMessages.id),
      db.select({ id: calendarEvents.id }).from(calendarEvents).orderBy(calendarEvents.id),
      db.select({ id: auditLog.id }).from(auditLog).orderBy(auditLog.id),
      db.select({ id: sessions.id, revoked: sessions.revokedAt }).from(sessions).orderBy(sessions.id),
    ]);
  return { userRows, meetingRows, attendanceRows, channelRows, contactRows, eventRows, auditRows, sessionRows };
}

export async function auditFor(server: TestServer, action: string) {
  return server.built.context.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);
}

/** A raw POST, for the CSV answer and for JSON bodies. */
export async function rawPost(server: TestServer, name: string, body: Record<string, unknown>) {
  return fetch(`${server.baseUrl}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
