/**
 * Test-only data for the admin specs, written straight into the e2e server's database through the
 * loopback hook of app-server.ts (never part of the product): meetings (live ones with people in the
 * room), channels, Contact Us messages and calendar events, which other features create in real use.
 */
import { calendarEvents, channels, contactMessages, meetingAttendance, meetings, type Database } from '@meetcast/db';
import { z } from 'zod';

export const AdminSeedSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('meeting'),
    hostId: z.number(),
    name: z.string(),
    slug: z.string(),
    start: z.number(),
    minutes: z.number().default(60),
    repeat: z.number().default(0),
    state: z.enum(['scheduled', 'live', 'ended']).default('scheduled'),
    present: z.number().default(0),
  }),
  z.object({ kind: z.literal('channel'), ownerId: z.number(), name: z.string(), slug: z.string() }),
  z.object({
    kind: z.literal('contact'),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
  }),
  z.object({ kind: z.literal('event'), userId: z.number(), title: z.string(), start: z.number(), minutes: z.number() }),
]);
export type AdminSeed = z.input<typeof AdminSeedSchema>;

export async function seedForAdmin(db: Database, input: unknown): Promise<{ id: number }> {
  const seed = AdminSeedSchema.parse(input);
  switch (seed.kind) {
    case 'meeting': {
      const [row] = await db
        .insert(meetings)
        .values({
          hostId: seed.hostId,
          name: seed.name,
          slug: seed.slug,
          isSchedule: 1,
          startTime: new Date(seed.start * 1000),
          endTime: new Date((seed.start + seed.minutes * 60) * 1000),
          repeat: seed.repeat,
          state: seed.state,
          startedAt: seed.state === 'live' ? new Date() : null,
        })
        .returning({ id: meetings.id });
      for (let index = 0; index < seed.present; index++) {
        await db.insert(meetingAttendance).values({ meetingId: row!.id, displayName: `Guest ${index + 1}` });
      }
      return row!;
    }
    case 'channel': {
      const [row] = await db
        .insert(channels)
        .values({ ownerId: seed.ownerId, name: seed.name, slug: seed.slug })
        .returning({ id: channels.id });
      return row!;
    }
    case 'contact': {
      const [row] = await db.insert(contactMessages).values(seed).returning({ id: contactMessages.id });
      return row!;
    }
    case 'event': {
      const [row] = await db
        .insert(calendarEvents)
        .values({
          userId: seed.userId,
          title: seed.title,
          startTime: new Date(seed.start * 1000),
          endTime: new Date((seed.start + seed.minutes * 60) * 1000),
        })
        .returning({ id: calendarEvents.id });
      return row!;
    }
  }
}
