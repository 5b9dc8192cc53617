import { createReadStream, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, inArray, liveBroadcasts, type Database } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import { requestLanguage } from '../http/request-language.js';
import { translate } from '../i18n/messages.js';

/** Recording names are made by the composer: `{broadcast id}-{32 random hex}.mp4`. */
const RECORDING_NAME = /^\d+-[0-9a-f]{32}\.mp4$/;
/** The finished file or the fragments a recorder writes beside it while the broadcast runs. */
const RECORDING_OR_PART = /^\d+-[0-9a-f]{32}(\.part\d*)?\.mp4$/;

export const recordingsFolder = (dataDir: string) => join(dataDir, 'recordings');

/**
 * GET /api/recordings/{name}: the MP4 with byte ranges, so players can seek. The random part of the
 * name is the capability (like an unlisted video's address); it is only given to those who may see it.
 */
export function registerRecordingFiles(app: FastifyInstance, db: Database, dataDir: string) {
  app.get<{ Params: { name: string } }>('/api/recordings/:name', { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params;
    const file = join(recordingsFolder(dataDir), name);
    // Only a finished recording of a broadcast that still exists: a deleted meeting's is gone at once.
    if (!RECORDING_NAME.test(name) || !(await isListedRecording(db, name)) || !existsSync(file)) {
      return reply
        .status(404)
        .send({ status: 'error', message: translate(requestLanguage(request), 'broadcasts.recording_not_found') });
    }
    const size = statSync(file).size;
    reply.header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=3600').type('video/mp4');
    if (request.query && (request.query as { download?: string }).download === '1') {
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

async function isListedRecording(db: Database, name: string) {
  const [row] = await db
    .select({ id: liveBroadcasts.id })
    .from(liveBroadcasts)
    .where(and(eq(liveBroadcasts.id, broadcastIdOf(name)), eq(liveBroadcasts.recordingFile, name)));
  return Boolean(row);
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
