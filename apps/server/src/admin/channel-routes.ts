import { type AdminChannel, type AdminChannelListInput } from '@meetcast/contracts';
import { and, channelFollowers, channels, count, eq, isNotNull, isNull, or, sql, users } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import { deleteChannel, setChannelHidden } from '../channels/channel-records.js';
import type { AppContext } from '../context.js';
import { apiRoute, type ApiCall, done } from '../http/api-route.js';
import { notFound } from '../http/app-error.js';
import { type MessageKey } from '../i18n/messages.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { actorOf, writeAudit } from './audit.js';
import { likePattern, ordered, pageHandler, searchedId, type Slice } from './list-query.js';
import { toEpochSeconds } from '../platform/time.js';

const followers = sql<number>`(select count(*)::int from ${channelFollowers} where ${channelFollowers.channelId} = ${channels.id})`;

const SORT_COLUMNS = {
  id: channels.id,
  name: sql`lower(${channels.name})`,
  owner: sql`lower(${users.username})`,
  followers,
  created_at: channels.createdAt,
} as const;

function channelFilter(input: AdminChannelListInput) {
  const pattern = input.search ? likePattern(input.search) : undefined;
  const id = searchedId(input.search);
  return and(
    pattern
      ? or(
          sql`lower(${channels.name}) like ${pattern}`,
          sql`lower(${channels.slug}) like ${pattern}`,
          sql`lower(${users.username}) like ${pattern}`,
          sql`lower(${users.email}) like ${pattern}`,
          id ? eq(channels.id, id) : undefined,
        )
      : undefined,
    input.hidden === 'yes' ? isNotNull(channels.hiddenAt) : undefined,
    input.hidden === 'no' ? isNull(channels.hiddenAt) : undefined,
  );
}

export async function listChannels(
  context: AppContext,
  input: AdminChannelListInput,
  slice: Slice,
): Promise<{ rows: AdminChannel[]; total: number }> {
  const where = channelFilter(input);
  const direction = input.direction ?? (input.sort ? 'asc' : 'desc');
  const [rows, [totalRow]] = await Promise.all([
    context.db
      .select({ channel: channels, owner: { id: users.id, username: users.username, email: users.email }, followers })
      .from(channels)
      .innerJoin(users, eq(users.id, channels.ownerId))
      .where(where)
      .orderBy(ordered(SORT_COLUMNS[input.sort ?? 'id'], direction), ordered(channels.id, direction))
      .limit(slice.limit)
      .offset(slice.offset),
    context.db.select({ total: count() }).from(channels).innerJoin(users, eq(users.id, channels.ownerId)).where(where),
  ]);
  return {
    total: totalRow?.total ?? 0,
    rows: rows.map(({ channel, owner, followers: followerCount }) => ({
      id: channel.id,
      name: channel.name,
      slug: channel.slug,
      owner,
      visibility: channel.visibility,
      is_hidden: channel.hiddenAt !== null,
      hidden_at: channel.hiddenAt ? toEpochSeconds(channel.hiddenAt) : null,
      followers: followerCount,
      created_at: toEpochSeconds(channel.createdAt),
    })),
  };
}

export function registerAdminChannelRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'admin';

  apiRoute(app, {
    name: 'admin-get-channels.php',
    tag,
    summary: 'Every channel with its owner and followers; search, filter hidden, sort, page',
    handler: pageHandler((query, slice) => listChannels(context, query, slice)),
  });

  /** Hide or unhide: a hidden channel leaves browsing and its public page says it is unavailable. */
  const setHidden = async (id: number, isHidden: boolean, { request, caller: session, t }: ApiCall<'admin'>) => {
    const channel = await context.db.transaction(async (tx) => {
      const [row] = await tx.select().from(channels).where(eq(channels.id, id)).limit(1).for('update');
      if (!row) throw notFound('admin.channel_not_found');
      // Already so: nothing changes and nothing is recorded.
      if ((row.hiddenAt !== null) === isHidden) return row;
      await setChannelHidden(tx, row.id, isHidden);
      await writeAudit(tx, actorOf(session, request), [
        {
          action: isHidden ? 'channel.hidden' : 'channel.unhidden',
          targetType: 'channel',
          targetId: row.id,
          details: { name: row.name, slug: row.slug },
        },
      ]);
      return row;
    });
    const key: MessageKey = isHidden ? 'admin.channel_hidden' : 'admin.channel_unhidden';
    return done(t(key, { name: channel.name }));
  };

  apiRoute(app, {
    name: 'admin-hide-channel.php',
    tag,
    summary: 'Hide a channel from browsing; its public page says it is unavailable',
    handler: (body, call) => setHidden(body.id, true, call),
  });

  apiRoute(app, {
    name: 'admin-unhide-channel.php',
    tag,
    summary: 'Show a hidden channel again',
    handler: (body, call) => setHidden(body.id, false, call),
  });

  apiRoute(app, {
    name: 'admin-delete-channel.php',
    tag,
    summary: 'Delete a channel and its followers',
    handler: async (body, { request, caller: session, t }) => {
      const channel = await context.db.transaction(async (tx) => {
        const row = await deleteChannel(tx, body.id);
        if (!row) throw notFound('admin.channel_not_found');
        await new MeetingRepository(tx).detachChannel(row.id);
        await writeAudit(tx, actorOf(session, request), [
          {
            action: 'channel.deleted',
            targetType: 'channel',
            targetId: row.id,
            details: { name: row.name, slug: row.slug, owner_id: row.ownerId },
          },
        ]);
        return row;
      });
      return done(t('admin.channel_deleted', { name: channel.name }));
    },
  });
}
