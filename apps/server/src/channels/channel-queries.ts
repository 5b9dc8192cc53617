import {
  CHANNEL_CATEGORIES,
  PASSWORD_FLAG,
  PRIVACY,
  ROLE,
  type Channel,
  type ChannelDetail,
} from '@meetcast/contracts';
import {
  and,
  channelFollowers,
  channels,
  eq,
  liveBroadcasts,
  meetings,
  ne,
  or,
  sql,
  users,
  type UserRow,
} from '@meetcast/db';
import type { MeetingRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { channelBroadcasts } from './channel-broadcasts.js';
import { toEpochSeconds } from '../platform/time.js';

export type ChannelRow = typeof channels.$inferSelect;
export type Viewer = Pick<UserRow, 'id' | 'roleId'> | undefined;

export const followersCount =
  sql<number>`(select count(*) from ${channelFollowers} where ${channelFollowers.channelId} = ${channels.id})`.mapWith(
    Number,
  );
/**
 * Live when a meeting anyone may watch is on air (ADR 022: the broadcast, not people in the room, makes
 * it live); a private or password meeting's broadcast is not the channel's.
 */
export const isLive =
  sql<boolean>`exists (select 1 from ${meetings} join ${liveBroadcasts} on ${liveBroadcasts.meetingId} = ${meetings.id} and ${liveBroadcasts.state} in ('starting', 'live') and ${liveBroadcasts.rehearsal} = false where ${meetings.channelId} = ${channels.id} and ${meetings.isPrivate} = ${PRIVACY.public} and ${meetings.isPassword} <> ${PASSWORD_FLAG.yes})`.mapWith(
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

export async function findChannel(context: AppContext, viewer: Viewer, where: ReturnType<typeof eq>) {
  const [row] = await context.db
    .select(channelSelection(viewer))
    .from(channels)
    .innerJoin(users, eq(users.id, channels.ownerId))
    .where(where)
    .limit(1);
  return row;
}

/** A channel with its live broadcast, the next scheduled ones and the past ones (ADR 022). */
export async function channelDetail(context: AppContext, row: ChannelQueryRow, viewer: Viewer): Promise<ChannelDetail> {
  return { ...toChannelDto(row, viewer), ...(await channelBroadcasts(context, row.channel.id, shownTo(viewer))) };
}
