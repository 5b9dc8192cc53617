import { broadcastDestinations, eq, type ConnectionRow, type DestinationRow } from '@meetcast/db';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { DestinationError, type DestinationDriver, type PlatformIds } from '../destination-driver.js';
import { PlatformHttpError, platformJson, platformUrl } from '../platform-http.js';
import { usableConnection, withAccessToken } from '../platform-tokens.js';

/** How long goLive waits for YouTube to see the pushed media, and how often it asks. */
const ACTIVE_WAIT_MS = 8_000;
const ACTIVE_POLL_MS = 500;
/** YouTube's limits: titles up to 100 characters, descriptions up to 5000 bytes, neither with < or >. */
const TITLE_MAX = 100;
const DESCRIPTION_MAX_BYTES = 5000;
/** When the host chose none: reachable by link, not listed on the channel. */
const DEFAULT_PRIVACY = 'unlisted';

const BroadcastSchema = z.object({ id: z.string().min(1) });
const IngestionSchema = z.object({
  id: z.string().min(1),
  cdn: z.object({ ingestionInfo: z.object({ ingestionAddress: z.string().min(1), streamName: z.string().min(1) }) }),
});
const StreamListSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        cdn: IngestionSchema.shape.cdn.optional(),
        status: z
          .object({
            streamStatus: z.string().optional(),
            healthStatus: z.object({ status: z.string().optional() }).optional(),
          })
          .optional(),
      }),
    )
    .default([]),
});
const AnySchema = z.unknown();

type Query = Record<string, string>;

/**
 * One Data API call with the connection's token. `tolerated` lists error reasons that mean "already
 * so" (redundantTransition): those answer undefined instead of failing.
 */
function youtubeCall<Schema extends z.ZodType>(
  context: AppContext,
  connection: ConnectionRow,
  schema: Schema,
  path: string,
  query: Query,
  options: { method?: 'GET' | 'POST'; json?: unknown; tolerated?: string[] } = {},
): Promise<z.infer<Schema> | undefined> {
  return withAccessToken(context, connection, async (accessToken) => {
    try {
      return await platformJson(schema, platformUrl(context.config.streaming.youtubeApiUrl, path, query), {
        method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${accessToken}` },
        ...(options.json === undefined ? {} : { json: options.json }),
      });
    } catch (error) {
      if (error instanceof PlatformHttpError && options.tolerated?.includes(error.reason ?? '')) return undefined;
      throw error;
    }
  });
}

async function required<T>(answer: Promise<T | undefined>): Promise<T> {
  const value = await answer;
  if (value === undefined) throw new DestinationError('stream_connections.youtube_failed', false);
  return value;
}

const withoutAngles = (text: string) => text.replace(/[<>]/g, '');

function clipBytes(text: string, maxBytes: number): string {
  let clipped = text;
  while (Buffer.byteLength(clipped, 'utf8') > maxBytes) clipped = clipped.slice(0, -1);
  return clipped;
}

/** The row as stored now: a caller retrying with an old copy must still see the ids stored since. */
async function latest(context: AppContext, destination: DestinationRow): Promise<DestinationRow> {
  const [row] = await context.db
    .select()
    .from(broadcastDestinations)
    .where(eq(broadcastDestinations.id, destination.id));
  return row ?? destination;
}

async function readStream(context: AppContext, connection: ConnectionRow, streamId: string, part: string) {
  const answer = await required(
    youtubeCall(context, connection, StreamListSchema, '/liveStreams', { part, id: streamId }),
  );
  return answer.items[0];
}

/**
 * YouTube: a liveBroadcast (what viewers see) and a liveStream (where media goes), bound together;
 * `live` once YouTube receives the media, `complete` at the end. Both ids are answered (with a failure
 * too, as far as they exist) and stored by the caller, so a retried prepare reuses them.
 */
export function createYouTubeDriver(context: AppContext): DestinationDriver {
  /** Broadcast, stream and bind; each id YouTube hands out goes into `ids` at once. */
  async function prepareIngest(destination: DestinationRow, ids: PlatformIds): Promise<string> {
    const { connection } = await usableConnection(context, destination.connectionId);
    const title = withoutAngles(destination.title).trim().slice(0, TITLE_MAX) || connection.name.slice(0, TITLE_MAX);

    let broadcastId = destination.externalBroadcastId;
    if (!broadcastId) {
      const broadcast = await required(
        youtubeCall(
          context,
          connection,
          BroadcastSchema,
          '/liveBroadcasts',
          { part: 'snippet,status,contentDetails' },
          {
            json: {
              snippet: {
                title,
                description: clipBytes(withoutAngles(destination.description), DESCRIPTION_MAX_BYTES),
                scheduledStartTime: new Date().toISOString(),
              },
              status: { privacyStatus: destination.privacy ?? DEFAULT_PRIVACY },
              // Meetcast says when it is live and when it ends; without the monitor stream, ready → live is direct.
              contentDetails: {
                enableAutoStart: false,
                enableAutoStop: false,
                monitorStream: { enableMonitorStream: false },
              },
            },
          },
        ),
      );
      broadcastId = broadcast.id;
      ids.externalBroadcastId = broadcastId;
    }

    let stream = destination.externalStreamId
      ? await readStream(context, connection, destination.externalStreamId, 'id,cdn,status')
      : undefined;
    if (!stream?.cdn) {
      // No stream yet, or YouTube no longer has the one stored: make one.
      stream = await required(
        youtubeCall(
          context,
          connection,
          IngestionSchema,
          '/liveStreams',
          { part: 'snippet,cdn,contentDetails,status' },
          {
            json: {
              snippet: { title },
              cdn: { ingestionType: 'rtmp', resolution: 'variable', frameRate: 'variable' },
              contentDetails: { isReusable: false },
            },
          },
        ),
      );
      ids.externalStreamId = stream.id;
    }
    // Binding again to the same stream changes nothing, so a retry after a failed bind just binds.
    await required(
      youtubeCall(
        context,
        connection,
        AnySchema,
        '/liveBroadcasts/bind',
        {
          id: broadcastId,
          part: 'id,contentDetails',
          streamId: stream.id,
        },
        { method: 'POST' },
      ),
    );
    const ingestion = stream.cdn?.ingestionInfo;
    if (!ingestion) throw new DestinationError('stream_connections.youtube_failed', false);
    return `${ingestion.ingestionAddress.replace(/\/+$/, '')}/${ingestion.streamName}`;
  }

  return {
    async prepare(stale) {
      const destination = await latest(context, stale);
      const ids: PlatformIds = {};
      try {
        const ingestUrl = await prepareIngest(destination, ids);
        return { ingestUrl, ids };
      } catch (error) {
        // What YouTube made before the failure is kept by the caller, so the retry reuses it.
        if (error instanceof DestinationError) throw new DestinationError(error.key, error.retryable, ids);
        if (Object.keys(ids).length > 0) throw new DestinationError('stream_connections.youtube_failed', true, ids);
        throw error;
      }
    },

    async goLive(stale) {
      const destination = await latest(context, stale);
      const { connection } = await usableConnection(context, destination.connectionId);
      const { externalBroadcastId: broadcastId, externalStreamId: streamId } = destination;
      if (!broadcastId || !streamId) throw new DestinationError('stream_connections.youtube_failed', false);
      // YouTube refuses to go live (errorStreamInactive) until it receives the media.
      const deadline = Date.now() + ACTIVE_WAIT_MS;
      for (;;) {
        const stream = await readStream(context, connection, streamId, 'status');
        if (stream?.status?.streamStatus === 'active') break;
        if (Date.now() + ACTIVE_POLL_MS > deadline) {
          throw new DestinationError('stream_connections.youtube_stream_inactive', true);
        }
        await new Promise((resolve) => setTimeout(resolve, ACTIVE_POLL_MS));
      }
      await youtubeCall(
        context,
        connection,
        AnySchema,
        '/liveBroadcasts/transition',
        { broadcastStatus: 'live', id: broadcastId, part: 'status' },
        { method: 'POST', tolerated: ['redundantTransition'] },
      );
    },

    async status(stale) {
      const destination = await latest(context, stale);
      if (!destination.externalStreamId) return {};
      const { connection } = await usableConnection(context, destination.connectionId);
      const stream = await readStream(context, connection, destination.externalStreamId, 'status');
      const health = stream?.status?.healthStatus?.status;
      return health ? { health } : {};
    },

    async finish(stale) {
      const destination = await latest(context, stale);
      if (!destination.externalBroadcastId) return;
      const { connection } = await usableConnection(context, destination.connectionId);
      // Already complete, or never went live: nothing left to end.
      await youtubeCall(
        context,
        connection,
        AnySchema,
        '/liveBroadcasts/transition',
        { broadcastStatus: 'complete', id: destination.externalBroadcastId, part: 'status' },
        { method: 'POST', tolerated: ['redundantTransition', 'invalidTransition'] },
      );
    },
  };
}
