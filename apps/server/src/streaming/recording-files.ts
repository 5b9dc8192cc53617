import { createReadStream, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, inArray, liveBroadcasts, meetings, type Database } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { requestLanguage } from '../http/request-language.js';
import { translate } from '../i18n/messages.js';
import { mayFetchRecording } from './recording-access.js';

/** Recording names are made by the composer: `{broadcast id}-{32 random hex}.mp4`. */
const RECORDING_NAME = /^\d+-[0-9a-f]{32}\.mp4$/;
/** The finished file or the fragments a recorder writes beside it while the broadcast runs. */
const RECORDING_OR_PART = /^\d+-[0-9a-f]{32}(\.part\d*)?\.mp4$/;

export const recordingsFolder = (dataDir: string) => join(dataDir, 'recordings');

interface RecordingRequest {
  Params: { name: string };
  Querystring: { download?: unknown; access?: unknown };
}

/**
 * GET /api/recordings/{name}: the MP4 with byte ranges, so players can seek. An open meeting's recording
 * (the channel page's replay) is served at its unguessable name alone; a private or password meeting's
 * only with the `access` its host or an invitee was given (recording-access.ts). Anything else is 404,
 * as if there were no such file.
 */
export function registerRecordingFiles(app: FastifyInstance, context: AppContext) {
  app.get<RecordingRequest>('/api/recordings/:name', { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params;
    const file = join(recordingsFolder(context.config.dataDir), name);
    // Only a finished recording of a broadcast that still exists: a deleted meeting's is gone at once.
    const meeting = RECORDING_NAME.test(name) ? await meetingOfRecording(context.db, name) : undefined;
    const isAllowed = meeting !== undefined && (await mayFetchRecording(context, meeting, name, request.query.access));
    if (!isAllowed || !existsSync(file)) {
      return reply
        .status(404)
        .send({ status: 'error', message: translate(requestLanguage(request), 'broadcasts.recording_not_found') });
    }
    const size = statSync(file).size;
    reply.header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=3600').type('video/mp4');
    if (request.query.download === '1') {
      reply.header('content-disposition', `attachment; filename="${name}"`);
    }
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    if (!range || (!range[1] && !range[2])) {
      return reply.header('content-length', size).send(createReadStream(file));
    }
    const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size || start > end) {
      return reply.status(416).header('content-range', `bytes */${size}`).send();
    }
    return reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${size}`)
      .header('content-length', end - start + 1)
      .send(createReadStream(file, { start, end }));
  });
}

async function meetingOfRecording(db: Database, name: string) {
  const [row] = await db
    .select({ meeting: meetings })
    .from(liveBroadcasts)
    .innerJoin(meetings, eq(meetings.id, liveBroadcasts.meetingId))
    .where(and(eq(liveBroadcasts.id, broadcastIdOf(name)), eq(liveBroadcasts.recordingFile, name)));
  return row?.meeting;
}

const broadcastIdOf = (name: string) => Number(name.slice(0, name.indexOf('-')));

/**
 * Deleting a meeting deletes its broadcasts (whichever feature deletes it: host, administrator, account
 * deletion); their files go here. A running broadcast still has its row, so its growing file stays.
 */
export async function deleteOrphanRecordings(db: Database, dataDir: string): Promise<number> {
  const folder = recordingsFolder(dataDir);
  if (!existsSync(folder)) return 0;
  const files = readdirSync(folder).filter((name) => RECORDING_OR_PART.test(name));
  if (files.length === 0) return 0;
  const ids = [...new Set(files.map(broadcastIdOf))];
  const kept = await db.select({ id: liveBroadcasts.id }).from(liveBroadcasts).where(inArray(liveBroadcasts.id, ids));
  const keptIds = new Set(kept.map((row) => row.id));
  const orphans = files.filter((name) => !keptIds.has(broadcastIdOf(name)));
  for (const name of orphans) rmSync(join(folder, name), { force: true });
  return orphans.length;
}
