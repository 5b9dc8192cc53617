import {
  CHANNEL_CATEGORIES,
  PASSWORD_FLAG,
  PRIVACY,
  ROLE,
  type Broadcast,
  type Channel,
  type ChannelDetail,
} from '@meetcast/contracts';
import { and, asc, channelFollowers, channels, desc, eq, gt, lte, meetings, ne, or, sql, users } from '@meetcast/db';
import type { MeetingRow } from '@meetcast/db';
import { toEpochSeconds, type UserRow } from '../accounts/user-dto.js';
import type { AppContext } from '../context.js';

export type ChannelRow = typeof channels.$inferSelect;
export type Viewer = Pick<UserRow, 'id' | 'roleId'> | undefined;

const BROADCAST_LIST_LIMIT = 20;

export const followersCount =
  sql<number>`(select count(*) from ${channelFollowers} where ${channelFollowers.channelId} = ${channels.id})`.mapWith(
    Number,
  );
/** Live with a meeting anyone may watch: a private or password meeting's broadcast is not the channel's. */
export const isLive =
  sql<boolean>`exists (select 1 from ${meetings} where ${meetings.channelId} = ${channels.id} and ${meetings.state} = 'live' and ${meetings.isPrivate} = ${PRIVACY.public} and ${meetings.isPassword} <> ${PASSWORD_FLAG.yes})`.mapWith(
    Boolean,
  );

/** A channel's meeting is on its page when anyone may see it (public, no password) or the viewer hosts it. */
export const isOpenMeeting = (meeting: MeetingRow) =>
  meeting.isPrivate === PRIVACY.public && meeting.isPassword !== PASSWORD_FLAG.yes;
function shownTo(viewer: Viewer) {
  const isOpen = and(eq(meetings.isPrivate, PRIVACY.public), ne(meetings.isPassword, PASSWORD_FLAG.yes));
  return viewer ? or(isOpen, eq(meetings.hostId, viewer.id)) : isOpen;
}

function isFollowing(viewer: Viewer) {
  return viewer
    ? sql<boolean>`exists (select 1 from ${channelFollowers} where ${channelFollowers.channelId} = ${channels.id} and ${channelFollowers.userId} = ${viewer.id})`.mapWith(
        Boolean,
      )
    : sql<boolean>`false`.mapWith(Boolean);
}

export function channelSelection(viewer: Viewer) {
  return {
    channel: channels,
    owner: { id: users.id, username: users.username, avatar: users.avatar },
    followersCount,
    isFollowing: isFollowing(viewer),
    isLive,
  };
}

export type ChannelQueryRow = {
  channel: ChannelRow;
  owner: Channel['owner'];
  followersCount: number;
  isFollowing: boolean;
  isLive: boolean;
};

export const canEdit = (viewer: Viewer, channel: ChannelRow) =>
  !!viewer && (viewer.id === channel.ownerId || viewer.roleId === ROLE.admin);

export function toChannelDto(row: ChannelQueryRow, viewer: Viewer): Channel {
  const { channel } = row;
  return {
    id: channel.id,
    name: channel.name,
    slug: channel.slug,
    description: channel.description,
    category: (CHANNEL_CATEGORIES as readonly string[]).includes(channel.category)
      ? (channel.category as Channel['category'])
      : 'other',
    avatar: channel.avatar,
    cover: channel.cover,
    links: channel.links,
    visibility: channel.visibility,
    is_hidden: channel.hiddenAt !== null,
    owner: row.owner,
    followers_count: row.followersCount,
    is_following: row.isFollowing,
    can_edit: canEdit(viewer, channel),
    is_live: row.isLive,
    created_at: toEpochSeconds(channel.createdAt),
  };
}

export function toBroadcastDto(meeting: MeetingRow): Broadcast {
  const hasEnded = meeting.state === 'ended' || (meeting.state === 'scheduled' && meeting.endTime <= new Date());
  return {
    id: meeting.id,
    name: meeting.name,
    url_slug: meeting.slug,
    description: meeting.description,
    start_time: toEpochSeconds(meeting.startTime),
    end_time: toEpochSeconds(meeting.endTime),
    state: meeting.state === 'live' ? 'live' : hasEnded ? 'ended' : 'scheduled',
    started_at: meeting.startedAt ? toEpochSeconds(meeting.startedAt) : null,
    ended_at: meeting.endedAt ? toEpochSeconds(meeting.endedAt) : null,
  };
}

export async function findChannel(context: AppContext, viewer: Viewer, where: ReturnType<typeof eq>) {
  const [row] = await context.db
    .select(channelSelection(viewer))
    .from(channels)
    .innerJoin(users, eq(users.id, channels.ownerId))
    .where(where)
    .limit(1);
  return row;
}

/** A channel with its live broadcast, the next scheduled ones and the past ones. */
export async function channelDetail(context: AppContext, row: ChannelQueryRow, viewer: Viewer): Promise<ChannelDetail> {
  const now = new Date();
  const channelId = row.channel.id;
  const live = await context.db
    .select()
    .from(meetings)
    .where(and(eq(meetings.channelId, channelId), eq(meetings.state, 'live'), shownTo(viewer)))
    .orderBy(desc(meetings.startedAt))
    .limit(1);
  const upcoming = await context.db
    .select()
    .from(meetings)
    .where(
      and(
        eq(meetings.channelId, channelId),
        eq(meetings.state, 'scheduled'),
        gt(meetings.endTime, now),
        shownTo(viewer),
      ),
    )
    .orderBy(asc(meetings.startTime))
    .limit(BROADCAST_LIST_LIMIT);
  const past = await context.db
    .select()
    .from(meetings)
    .where(
      and(
        eq(meetings.channelId, channelId),
        or(eq(meetings.state, 'ended'), and(eq(meetings.state, 'scheduled'), lte(meetings.endTime, now))),
        shownTo(viewer),
      ),
    )
    .orderBy(desc(meetings.startTime))
    .limit(BROADCAST_LIST_LIMIT);
  return {
    ...toChannelDto(row, viewer),
    live: live[0] ? toBroadcastDto(live[0]) : null,
    upcoming: upcoming.map(toBroadcastDto),
    past: past.map(toBroadcastDto),
  };
}
