import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { DestinationError, type DestinationDriver } from '../destination-driver.js';
import { platformJson } from '../platform-http.js';
import { callPlatformApi, destinationErrorFor, platformApiJson, usableConnection } from '../platform-tokens.js';
import type { ConnectionRow } from '@meetcast/db';

const StreamKeySchema = z.object({ data: z.array(z.object({ stream_key: z.string().min(1) })).min(1) });
const IngestsSchema = z.object({
  ingests: z.array(z.object({ url_template: z.string().includes('{stream_key}') })).min(1),
});
const StreamsSchema = z.object({ data: z.array(z.object({ viewer_count: z.number().int() })) });
const CategoriesSchema = z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) });

/** Twitch titles are at most 140 characters. */
const TWITCH_TITLE_MAX = 140;

/** The categories (games) matching `query`, for the category box of the Go Live dialog. */
export async function searchTwitchCategories(context: AppContext, connection: ConnectionRow, query: string) {
  const { connection: usable } = await usableConnection(context, connection.id);
  const answer = await platformApiJson(context, usable, CategoriesSchema, '/search/categories', { query, first: '20' });
  return answer.data.map(({ id, name }) => ({ id, name }));
}

async function ingestTemplate(context: AppContext): Promise<string> {
  try {
    // The ingest list needs no token. Twitch sorts it by closeness to the caller.
    const answer = await platformJson(IngestsSchema, context.config.streaming.twitchIngestUrl);
    return answer.ingests[0]?.url_template ?? '';
  } catch (error) {
    throw destinationErrorFor('twitch', error);
  }
}

async function twitchConnection(context: AppContext, connectionId: number | null) {
  const { connection } = await usableConnection(context, connectionId);
  if (!connection.externalId) throw new DestinationError('stream_connections.connection_missing', false);
  return { connection, broadcasterId: connection.externalId };
}

/**
 * Twitch: the channel's own stream key (Helix GET /streams/key), title and category set on the
 * channel (PATCH /channels), pushed to the ingest Twitch lists. Nothing to start or end: the
 * channel is live while media arrives.
 */
export function createTwitchDriver(context: AppContext): DestinationDriver {
  return {
    async prepare(destination) {
      const { connection, broadcasterId } = await twitchConnection(context, destination.connectionId);
      const keys = await platformApiJson(context, connection, StreamKeySchema, '/streams/key', {
        broadcaster_id: broadcasterId,
      });
      const channel: Record<string, string> = {};
      if (destination.title.trim()) channel.title = destination.title.trim().slice(0, TWITCH_TITLE_MAX);
      if (destination.category?.trim()) channel.game_id = destination.category.trim();
      if (Object.keys(channel).length > 0) {
        const where = { broadcaster_id: broadcasterId };
        await callPlatformApi(context, connection, '/channels', where, { method: 'PATCH', json: channel }).catch(
          (error: unknown) => {
            throw categoryError(error, destination.category) ?? error;
          },
        );
      }
      const streamKey = keys.data[0]?.stream_key ?? '';
      return { ingestUrl: (await ingestTemplate(context)).replace('{stream_key}', streamKey) };
    },

    async goLive() {
      // Twitch shows the channel live as soon as the ingest receives media.
    },

    async status(destination) {
      const { connection, broadcasterId } = await twitchConnection(context, destination.connectionId);
      const answer = await platformApiJson(context, connection, StreamsSchema, '/streams', { user_id: broadcasterId });
      // Not listed yet (the first seconds of a stream): nobody is watching.
      return { viewers: answer.data[0]?.viewer_count ?? 0 };
    },

    async finish() {
      // Ending the push ends the stream on Twitch.
    },
  };
}

/**
 * PATCH /channels answers 400 to a category id Twitch does not know (the only field of ours it can
 * refuse): say so instead of "refused".
 */
function categoryError(error: unknown, category: string | null): DestinationError | undefined {
  if (category && error instanceof DestinationError && error.key === 'stream_connections.twitch_failed') {
    return new DestinationError('stream_connections.twitch_category_unknown', false);
  }
  return undefined;
}
