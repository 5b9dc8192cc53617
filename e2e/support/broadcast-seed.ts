/**
 * Test-only broadcasts for the channel specs that need no composer, written straight into the e2e
 * server's database through the loopback hook of app-server.ts (never part of the product): a
 * meeting on air (its row held by a stand-in composer whose heartbeat no worker finds stale, so no
 * real composer takes it over), and an ended one with a real MP4 made by ffmpeg and its chapters
 * stored the way the server stores them while live (ADR 048).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, broadcastChapters, eq, inArray, liveBroadcasts, meetings, type Database } from '@meetcast/db';
import { z } from 'zod';

export const BroadcastSeedSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('live'), meetingSlug: z.string() }),
  z.object({
    kind: z.literal('replay'),
    meetingSlug: z.string(),
    seconds: z.number().int().min(2).max(120),
    chapters: z.array(
      z.object({
        kind: z.enum(['layout', 'screen_share_start', 'screen_share_stop']),
        layout: z.string().nullable().default(null),
        offset: z.number(),
      }),
    ),
  }),
]);
export type BroadcastSeed = z.input<typeof BroadcastSeedSchema>;

const STAND_IN_COMPOSER = 'e2e-stand-in-composer';

export async function seedBroadcast(db: Database, dataDir: string, input: unknown): Promise<{ id: number }> {
  const seed = BroadcastSeedSchema.parse(input);
  const [meeting] = await db.select().from(meetings).where(eq(meetings.slug, seed.meetingSlug));
  if (!meeting) throw new Error(`no meeting ${seed.meetingSlug}`);
  if (seed.kind === 'live') {
    await db.update(meetings).set({ state: 'live', startedAt: new Date() }).where(eq(meetings.id, meeting.id));
    const [row] = await db
      .insert(liveBroadcasts)
      .values({
        meetingId: meeting.id,
        state: 'live',
        startedAt: new Date(),
        composerId: STAND_IN_COMPOSER,
        composerHeartbeatAt: new Date(Date.now() + 3600_000),
      })
      .returning({ id: liveBroadcasts.id });
    return row!;
  }
  const startedAt = new Date(Date.now() - (seed.seconds + 5) * 1000);
  await db
    .update(liveBroadcasts)
    .set({ state: 'ended', endedAt: new Date() })
    .where(and(eq(liveBroadcasts.meetingId, meeting.id), inArray(liveBroadcasts.state, ['starting', 'live'])));
  await db.update(meetings).set({ state: 'ended', endedAt: new Date() }).where(eq(meetings.id, meeting.id));
  const [row] = await db
    .insert(liveBroadcasts)
    .values({ meetingId: meeting.id, state: 'ended', record: true, startedAt, endedAt: new Date() })
    .returning({ id: liveBroadcasts.id });
  const name = `${row!.id}-${randomBytes(16).toString('hex')}.mp4`;
  const folder = join(dataDir, 'recordings');
  mkdirSync(folder, { recursive: true });
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=10'],
    ...['-t', String(seed.seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '10'],
    ...['-movflags', '+faststart', join(folder, name)],
  ]);
  await db
    .update(liveBroadcasts)
    .set({ recordingFile: name, recordingSeconds: seed.seconds })
    .where(eq(liveBroadcasts.id, row!.id));
  for (const chapter of seed.chapters) {
    await db.insert(broadcastChapters).values({
      broadcastId: row!.id,
      kind: chapter.kind,
      layout: chapter.layout,
      at: new Date(startedAt.getTime() + chapter.offset * 1000),
      offsetSeconds: chapter.offset,
    });
  }
  return row!;
}
