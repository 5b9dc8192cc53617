import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { requestLanguage } from '../http/request-language.js';
import { translate } from '../i18n/messages.js';

/** Recording names are made by the composer: `{broadcast id}-{32 random hex}.mp4`. */
const RECORDING_NAME = /^\d+-[0-9a-f]{32}\.mp4$/;

export const recordingsFolder = (dataDir: string) => join(dataDir, 'recordings');

/**
 * GET /api/recordings/{name}: the MP4 with byte ranges, so players can seek. The random part of the
 * name is the capability (like an unlisted video's address); it is only given to those who may see it.
 */
export function registerRecordingFiles(app: FastifyInstance, dataDir: string) {
  app.get<{ Params: { name: string } }>('/api/recordings/:name', { schema: { hide: true } }, (request, reply) => {
    const { name } = request.params;
    const file = join(recordingsFolder(dataDir), name);
    if (!RECORDING_NAME.test(name) || !existsSync(file)) {
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

/** A deleted meeting takes its recordings with it. */
export function deleteRecordingFiles(dataDir: string, names: (string | null)[]) {
  for (const name of names) {
    if (name && RECORDING_NAME.test(name)) rmSync(join(recordingsFolder(dataDir), name), { force: true });
  }
}
