import {
  JANUS_PATH,
  PASSWORD_FLAG,
  PRIVACY,
  type Language,
  type MediaAccess,
  type RoomMeeting,
} from '@meetcast/contracts';
import { and, eq, meetingInvitees, or, roomParticipants, users, type UserRow } from '@meetcast/db';
import { translate } from '../i18n/messages.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import type { AppContext } from '../context.js';
import { forbidden, gone, unavailable } from '../http/app-error.js';
import { JanusError } from '../media/janus-client.js';
import { MediaUnavailableError, MeetingClosedError, type PlacedRoom } from '../media/media-service.js';
import { issueGrant, type MeetingRow, type ParticipantRow } from './grants.js';
import type { JoinOrigin } from './room-browser.js';
import { toEpochSeconds } from '../platform/time.js';
import { verifyPassword } from '../platform/hashing.js';

/**
 * Finds a meeting by its slug (the /room/{meetId} address) only: meeting numbers are sequential, so
 * answering to them would let anyone walk through every meeting.
 */
export async function findMeeting(context: AppContext, meetId: string): Promise<MeetingRow | undefined> {
  return new MeetingRepository(context.db).findBySlug(meetId);
}

/**
 * What the pre-join screen may show. Someone who is neither host nor invited learns nothing about a
 * private meeting beyond that it needs an invitation (they may still knock at the lobby).
 */
export async function roomMeeting(
  context: AppContext,
  meeting: MeetingRow,
  /** Who is asking, before admission; people already admitted to the room see everything. */
  viewer?: { user: UserRow | undefined; language: Language },
  /** The host's name when the caller has it already (the room's handshake reads it with the grant). */
  hostName?: string | null,
): Promise<RoomMeeting> {
  const isOutsider =
    viewer !== undefined &&
    meeting.isPrivate === PRIVACY.private &&
    !(await isHostOrInvited(context, meeting, viewer.user));
  const [host] = isOutsider
    ? []
    : typeof hostName === 'string'
      ? [{ username: hostName }]
      : await context.db.select({ username: users.username }).from(users).where(eq(users.id, meeting.hostId));
  return {
    id: meeting.id,
    name: isOutsider ? translate(viewer.language, 'room.invitation_needed') : meeting.name,
    slug: meeting.slug,
    is_private: meeting.isPrivate,
    is_password: needsPassword(meeting) ? PASSWORD_FLAG.yes : PASSWORD_FLAG.no,
    is_schedule: meeting.isSchedule,
    state: meeting.state,
    locked: meeting.isLocked,
    host_name: host?.username ?? '',
    start_time: isOutsider ? 0 : toEpochSeconds(meeting.startTime),
    end_time: isOutsider ? 0 : toEpochSeconds(meeting.endTime),
    started_at: isOutsider || !meeting.startedAt ? null : toEpochSeconds(meeting.startedAt),
  };
}

export function needsPassword(meeting: MeetingRow): boolean {
  return meeting.isPassword === PASSWORD_FLAG.yes && Boolean(meeting.passwordHash);
}

/** Against the argon2id hash only, in constant time (ADR 005); the plain copy is never compared. */
function passwordMatches(meeting: MeetingRow, given: string): Promise<boolean> {
  return verifyPassword(meeting.passwordHash, given);
}

/** The meeting's host, or an invitee the host made a co-host: who may run its broadcast. */
export async function managesMeeting(context: AppContext, meeting: MeetingRow, user: UserRow | undefined) {
  return user?.id === meeting.hostId || Boolean((await inviteeOf(context, meeting, user))?.isCoHost);
}

/** The host, or an account the meeting invites (co-hosts are invitees too). */
export async function isHostOrInvited(context: AppContext, meeting: MeetingRow, user: UserRow | undefined) {
  return user?.id === meeting.hostId || Boolean(await inviteeOf(context, meeting, user));
}

async function inviteeOf(context: AppContext, meeting: MeetingRow, user: UserRow | undefined) {
  if (!user) return undefined;
  const [invitee] = await context.db
    .select()
    .from(meetingInvitees)
    .where(
      and(
        eq(meetingInvitees.meetingId, meeting.id),
        or(eq(meetingInvitees.userId, user.id), eq(meetingInvitees.email, user.email.toLowerCase())),
      ),
    );
  return invitee;
}

export interface JoinRequest {
  meeting: MeetingRow;
  user: UserRow | undefined;
  displayName: string | undefined;
  password: string | undefined;
  /** Through the studio's backstage link: off the broadcast until a host adds them (ADR 045). */
  backstage?: boolean;
  /** The browser and address the request came from (see room-browser.ts), never what the page says. */
  origin: JoinOrigin;
}

export interface JoinDecision {
  token: string;
  participant: ParticipantRow;
  /** The Janus room, placed now for whoever is admitted at once; undefined for the lobby. */
  placed?: PlacedRoom;
}

/**
 * Who may come in, and how: the host and co-hosts always; others need the password when there is
 * one, wait in the lobby of a private meeting unless invited, and stay out of a locked room. Someone
 * removed from the meeting waits in the lobby whatever the meeting, so only the host can let them back
 * in: known by account, by the browser's server-issued identity, and, for guests, by address (a guest
 * who drops the browser's identity, or signs out to come back as a guest, is still known).
 */
export async function joinMeeting(context: AppContext, request: JoinRequest): Promise<JoinDecision> {
  const { meeting, user } = request;
  const isOwner = user?.id === meeting.hostId;
  const invitee = await inviteeOf(context, meeting, user);
  const role: ParticipantRow['role'] = isOwner ? 'host' : invitee?.isCoHost ? 'cohost' : 'participant';
  const isHost = role !== 'participant';

  if (!isHost && needsPassword(meeting)) {
    if (!request.password) throw forbidden('room.password_required');
    if (!(await passwordMatches(meeting, request.password))) throw forbidden('room.wrong_password');
  }
  const { browserHash, addressHash } = request.origin;
  const wasRemoved = !isOwner && (await removedBefore(context, meeting, user, request.origin));
  if (!isHost && meeting.isLocked) throw forbidden('room.locked');
  const displayName = user?.username ?? request.displayName;
  if (!displayName) throw forbidden('room.display_name_required');

  const waits = wasRemoved || (!isHost && !invitee && meeting.isPrivate === PRIVACY.private);
  const placed = waits ? undefined : await ensureMedia(context, meeting);
  const grant = await issueGrant(context.db, {
    meetingId: meeting.id,
    userId: user?.id ?? null,
    displayName,
    browserHash,
    addressHash,
    role,
    state: waits ? 'lobby' : 'admitted',
    // Only ever keeps someone off the stream: every rule above applied to them as to anyone.
    backstage: request.backstage === true,
  });
  return { ...grant, placed };
}

/**
 * Removed once is removed for this meeting. An account is known by itself and by its browser; a
 * guest also by their address, as a guest has nothing else the server gave them.
 */
async function removedBefore(
  context: AppContext,
  meeting: MeetingRow,
  user: UserRow | undefined,
  origin: JoinOrigin,
): Promise<boolean> {
  const [removed] = await context.db
    .select({ id: roomParticipants.id })
    .from(roomParticipants)
    .where(
      and(
        eq(roomParticipants.meetingId, meeting.id),
        eq(roomParticipants.state, 'removed'),
        or(
          eq(roomParticipants.browserHash, origin.browserHash),
          user ? eq(roomParticipants.userId, user.id) : eq(roomParticipants.addressHash, origin.addressHash),
        ),
      ),
    )
    .limit(1);
  return Boolean(removed);
}

/** Where a participant of a placed room opens the media connection, and with which STUN/TURN servers. */
export async function mediaAccess(context: AppContext, janusRoom: number, participantId: string): Promise<MediaAccess> {
  return { path: JANUS_PATH, room: janusRoom, ice_servers: await context.media.iceServers(participantId) };
}

/** Janus must be there before anyone is told to connect to it. */
export async function ensureMedia(context: AppContext, meeting: MeetingRow) {
  try {
    return await context.media.ensureRoom(meeting);
  } catch (error) {
    // The meeting ended while this join was on its way: it is not placed again.
    if (error instanceof MeetingClosedError) throw gone('room.ended');
    if (error instanceof MediaUnavailableError || error instanceof JanusError) {
      context.log.error({ err: error, meetingId: meeting.id }, 'media: room unavailable');
      throw unavailable('room.media_unavailable');
    }
    throw error;
  }
}
