import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq, liveBroadcasts } from '@meetcast/db';
import type { TestServer } from './test-server.js';

/**
 * An ended broadcast of `meetingId` with a real two-second MP4, named as the composer names them
 * (the composer itself needs Janus, Chromium and minutes; the access tests need only its result).
 */
export async function recordedBroadcast(server: TestServer, meetingId: number) {
  const [broadcast] = await server.built.context.db
    .insert(liveBroadcasts)
    .values({ meetingId, state: 'ended', record: true, endedAt: new Date() })
    .returning();
  return attachRecording(server, broadcast!.id);
}

/** What the composer leaves behind a recorded broadcast once it ends: the MP4, named on the broadcast's row. */
export async function attachRecording(server: TestServer, broadcastId: number) {
  const name = `${broadcastId}-${randomBytes(16).toString('hex')}.mp4`;
  const folder = join(server.built.context.config.dataDir, 'recordings');
  mkdirSync(folder, { recursive: true });
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=15'],
    ...['-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'],
    join(folder, name),
  ]);
  await server.built.context.db
    .update(liveBroadcasts)
    .set({ recordingFile: name, recordingSeconds: 2 })
    .where(eq(liveBroadcasts.id, broadcastId));
  return { name, broadcastId };
}

/** The status of a GET on the server, its body read to the end (an unread body keeps the connection busy). */
export async function statusOf(server: TestServer, path: string) {
  const response = await fetch(`${server.baseUrl}${path}`);
  await response.arrayBuffer();
  return response.status;
}
