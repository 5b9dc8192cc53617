import {
  PRIVACY,
  ROLE,
  type ChannelPage,
  type DestinationRequest,
  type CreateChannelInput,
  type ChannelLink,
} from '@meetcast/contracts';
import {
  and,
  asc,
  channelFollowers,
  channels,
  count,
  desc,
  eq,
  ilike,
  isNull,
  meetings,
  or,
  sql,
  users,
  isUniqueViolation,
  type UserRow,
} from '@meetcast/db';
import type { AppContext } from '../context.js';
import { badRequest, conflict, forbidden, notFound } from '../http/app-error.js';
import { notifyChannelFollowers } from '../notifications/channel-followers.js';
import { checkBroadcastPlan, saveBroadcastPlan } from '../streaming/broadcast-plans.js';
import { createInstantMeeting } from '../meeting-records/instant-meetings.js';
import { removeImage, storeImage } from '../uploads/images.js';
import { broadcastDto, toBroadcastDto } from './channel-broadcasts.js';
import {
  channelDetail,
  channelSelection,
  findChannel,
  followersCount,
  isLive,
  isOpenMeeting,
  toChannelDto,
  type Viewer,
} from './channel-queries.js';
import { containsPattern } from '../platform/text.js';

async function slugOwner(context: AppContext, slug: string) {
  const [row] = await context.db.select({ id: channels.id }).from(channels).where(eq(channels.slug, slug)).limit(1);
  return row?.id;
}

/** Free for this channel (or for a new one when `channelId` is undefined)? */
export async function checkChannelSlug(context: AppContext, slug: string, channelId?: number) {
  const owner = await slugOwner(context, slug);
  if (owner !== undefined && owner !== channelId) throw conflict('channels.slug_taken');
}

export async function getMyChannel(context: AppContext, user: UserRow) {
  const row = await findChannel(context, user, eq(channels.ownerId, user.id));
  return row ? channelDetail(context, row, user) : null;
}

interface ChannelFields {
  name?: string | undefined;
  slug?: string | undefined;
  description?: string | undefined;
  category?: CreateChannelInput['category'];
  links?: ChannelLink[] | undefined;
  visibility?: 'public' | 'unlisted' | undefined;
}

function columns(fields: ChannelFields) {
  const values = {
    name: fields.name,
    slug: fields.slug,
    description: fields.description,
    category: fields.category,
    links: fields.links,
    visibility: fields.visibility,
  };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

export async function createChannel(
  context: AppContext,
  user: UserRow,
  fields: ChannelFields & { name: string; slug: string },
) {
  const [mine] = await context.db
    .select({ id: channels.id })
    .from(channels)
    .where(eq(channels.ownerId, user.id))
    .limit(1);
  if (mine) throw conflict('channels.already_have');
  await checkChannelSlug(context, fields.slug);
  try {
    await context.db
      .insert(channels)
      .values({ category: 'other', ...columns(fields), name: fields.name, slug: fields.slug, ownerId: user.id });
  } catch (error) {
    // Two tabs creating at once: the loser is told what the first check would have told it.
    if (isUniqueViolation(error, 'channels_owner_unique')) throw conflict('channels.already_have');
    if (isUniqueViolation(error)) throw conflict('channels.slug_taken');
    throw error;
  }
  const created = await getMyChannel(context, user);
  if (!created) throw new Error('created channel vanished');
  return created;
}

/** The channel by id for someone allowed to change it: the owner or an administrator. */
async function editableChannel(context: AppContext, user: UserRow, id: number) {
  const row = await findChannel(context, user, eq(channels.id, id));
  if (!row) throw notFound('channels.not_found');
  if (row.channel.ownerId !== user.id && user.roleId !== ROLE.admin) throw forbidden('channels.not_yours');
  return row;
}

export async function getEditableChannel(context: AppContext, user: UserRow, id: number) {
  return channelDetail(context, await editableChannel(context, user, id), user);
}

export async function updateChannel(context: AppContext, user: UserRow, id: number, fields: ChannelFields) {
  await editableChannel(context, user, id);
  if (fields.slug) await checkChannelSlug(context, fields.slug, id);
  try {
    await context.db
      .update(channels)
      .set({ ...columns(fields), updatedAt: new Date() })
      .where(eq(channels.id, id));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('channels.slug_taken');
    throw error;
  }
  return getEditableChannel(context, user, id);
}

export async function uploadChannelImage(
  context: AppContext,
  user: UserRow,
  id: number,
  kind: 'avatar' | 'cover',
  bytes: Uint8Array | undefined,
) {
  const { channel } = await editableChannel(context, user, id);
  const path = await storeImage(context, bytes, kind === 'avatar' ? 'channel-avatar' : 'cover');
  await context.db
    .update(channels)
    .set(kind === 'avatar' ? { avatar: path, updatedAt: new Date() } : { cover: path, updatedAt: new Date() })
    .where(eq(channels.id, id));
  await removeImage(context, kind === 'avatar' ? channel.avatar : channel.cover);
  return getEditableChannel(context, user, id);
}

export async function listChannels(
  context: AppContext,
  viewer: Viewer,
  query: {
    search?: string | undefined;
    category?: string | undefined;
    following?: boolean | undefined;
    page?: number | undefined;
    per_page?: number | undefined;
  },
) {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 24;
  const pattern = query.search ? containsPattern(query.search) : undefined;
  const followed =
    query.following && viewer
      ? sql`exists (select 1 from ${channelFollowers} where ${channelFollowers.channelId} = ${channels.id} and ${channelFollowers.userId} = ${viewer.id})`
      : undefined;
  const where = and(
    isNull(channels.hiddenAt),
    // Unlisted channels are reachable by their link, and listed only for the people who follow them.
    followed ?? eq(channels.visibility, 'public'),
    query.following && !viewer ? sql`false` : undefined,
    query.category ? eq(channels.category, query.category) : undefined,
    pattern
      ? or(ilike(channels.name, pattern), ilike(channels.description, pattern), ilike(channels.slug, pattern))
      : undefined,
  );
  const rows = await context.db
    .select(channelSelection(viewer))
    .from(channels)
    .innerJoin(users, eq(users.id, channels.ownerId))
    .where(where)
    .orderBy(desc(isLive), desc(followersCount), asc(sql`lower(${channels.name})`), asc(channels.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const [{ total } = { total: 0 }] = await context.db.select({ total: count() }).from(channels).where(where);
  return { data: rows.map((row) => toChannelDto(row, viewer)), total, page, per_page: perPage };
}

const mayView = (viewer: Viewer, channel: { hiddenAt: Date | null; ownerId: number }) =>
  !channel.hiddenAt || (!!viewer && (viewer.id === channel.ownerId || viewer.roleId === ROLE.admin));

/**
 * A public page: a channel by its slug, or a broadcast by its meeting slug. Unlisted channels are
 * reachable by link; hidden ones (an administrator's decision) only by their owner and administrators.
 */
export async function getChannelPage(context: AppContext, viewer: Viewer, slug: string): Promise<ChannelPage> {
  const normalized = slug.trim().toLowerCase();
  const byChannel = await findChannel(context, viewer, eq(channels.slug, normalized));
  if (byChannel) {
    if (!mayView(viewer, byChannel.channel)) throw notFound('channels.unavailable');
    return { channel: await channelDetail(context, byChannel, viewer), broadcast: null };
  }
  const [found] = await context.db
    .select({ meeting: meetings, host: { id: users.id, username: users.username, avatar: users.avatar } })
    .from(meetings)
    .innerJoin(users, eq(users.id, meetings.hostId))
    .where(eq(meetings.slug, normalized))
    .limit(1);
  if (!found || found.meeting.state === 'cancelled') throw notFound('channels.unavailable');
  const broadcast = { ...(await broadcastDto(context, found.meeting)), host: found.host };
  // A private or password meeting is not a channel's broadcast: only its host finds it here.
  if (!isOpenMeeting(found.meeting) && viewer?.id !== found.meeting.hostId) throw notFound('channels.unavailable');
  if (found.meeting.channelId) {
    const owning = await findChannel(context, viewer, eq(channels.id, found.meeting.channelId));
    if (!owning || !mayView(viewer, owning.channel)) throw notFound('channels.unavailable');
    return { channel: await channelDetail(context, owning, viewer), broadcast };
  }
  // A meeting outside any channel is shown only when it is public.
  if (found.meeting.isPrivate !== PRIVACY.public) throw notFound('channels.unavailable');
  return { channel: null, broadcast };
}

async function visibleChannel(context: AppContext, user: UserRow, id: number) {
  const row = await findChannel(context, user, eq(channels.id, id));
  if (!row || !mayView(user, row.channel)) throw notFound('channels.not_found');
  return row;
}

async function followState(context: AppContext, user: UserRow, channelId: number) {
  const [{ total } = { total: 0 }] = await context.db
    .select({ total: count() })
    .from(channelFollowers)
    .where(eq(channelFollowers.channelId, channelId));
  const [mine] = await context.db
    .select({ id: channelFollowers.id })
    .from(channelFollowers)
    .where(and(eq(channelFollowers.channelId, channelId), eq(channelFollowers.userId, user.id)))
    .limit(1);
  return { followers_count: total, is_following: !!mine };
}

export async function followChannel(context: AppContext, user: UserRow, id: number) {
  const { channel } = await visibleChannel(context, user, id);
  if (channel.ownerId === user.id) throw badRequest('channels.follow_own');
  await context.db.insert(channelFollowers).values({ channelId: id, userId: user.id }).onConflictDoNothing();
  return { name: channel.name, state: await followState(context, user, id) };
}

export async function unfollowChannel(context: AppContext, user: UserRow, id: number) {
  const { channel } = await visibleChannel(context, user, id);
  await context.db
    .delete(channelFollowers)
    .where(and(eq(channelFollowers.channelId, id), eq(channelFollowers.userId, user.id)));
  return { name: channel.name, state: await followState(context, user, id) };
}

const MAX_BROADCAST_MS = 24 * 3600 * 1000;

/** Schedules a broadcast on the caller's channel: a real meeting, and every follower is told. */
export async function scheduleBroadcast(
  context: AppContext,
  user: UserRow,
  input: {
    id: number;
    name: string;
    description?: string | undefined;
    start_time: number;
    end_time: number;
    destinations: DestinationRequest[];
    record: number;
  },
) {
  const row = await findChannel(context, user, eq(channels.id, input.id));
  if (!row) throw notFound('channels.not_found');
  if (row.channel.ownerId !== user.id) throw forbidden('channels.not_yours');
  const start = new Date(input.start_time * 1000);
  const end = new Date(input.end_time * 1000);
  if (start.getTime() < Date.now() - 60_000) throw badRequest('channels.start_past');
  if (end <= start) throw badRequest('channels.end_before_start');
  if (end.getTime() - start.getTime() > MAX_BROADCAST_MS) throw badRequest('channels.too_long');
  const plan = { destinations: input.destinations, record: input.record === 1 };
  await checkBroadcastPlan(context, user, plan);
  const { meeting } = await createInstantMeeting(context.db, {
    hostId: user.id,
    name: input.name,
    description: input.description ?? '',
    window: { startTime: start, endTime: end },
    timeZone: user.timeZone,
    withPassword: false,
    channelId: row.channel.id,
  });
  await saveBroadcastPlan(context, meeting, plan);
  await notifyChannelFollowers(context, meeting.id, 'scheduled');
  return toBroadcastDto(meeting);
}
