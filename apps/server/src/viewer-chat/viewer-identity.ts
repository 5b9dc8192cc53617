import { randomBytes } from 'node:crypto';
import { ROLE } from '@meetcast/contracts';
import { channels, eq, type MeetingRow, type users } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { findGrant } from '../rooms/grants.js';
import { managesMeeting } from '../rooms/room-service.js';
import { secretsBoxFor, SecretsUnreadableError } from '../platform/secrets-box.js';

type UserRow = typeof users.$inferSelect;

/** Marks a sealed value as a viewer identity, so no other sealed secret can pass for one. */
const IDENTITY_PREFIX = 'viewer-chat:v1:';

/**
 * A guest's per-browser identity: a random id sealed (AES-256-GCM, the server's SECRETS_KEY) into
 * the token the browser keeps. The browser cannot read or forge another id, so a ban on the id holds
 * until the viewer clears their browser's storage (as a ban by account holds until a new account).
 */
export function newViewerToken(context: AppContext): string {
  return secretsBoxFor(context.config).seal(`${IDENTITY_PREFIX}${randomBytes(16).toString('base64url')}`);
}

/** The guest id a viewer token names, or undefined when it is missing, altered or not ours. */
export function openViewerToken(context: AppContext, token: string | undefined): string | undefined {
  if (!token) return undefined;
  try {
    const plain = secretsBoxFor(context.config).open(token);
    return plain.startsWith(IDENTITY_PREFIX) ? plain.slice(IDENTITY_PREFIX.length) : undefined;
  } catch (error) {
    if (error instanceof SecretsUnreadableError) return undefined;
    throw error;
  }
}

/** Who is asking, from whatever credentials the call or the socket carried. */
export interface ChatViewer {
  user: UserRow | undefined;
  guestId: string | undefined;
  /** The room participant a grant names, when it is a grant of this meeting. */
  roomRole: string | undefined;
}

export async function chatViewer(
  context: AppContext,
  meeting: MeetingRow,
  credentials: { user: UserRow | undefined; grant?: string | undefined; viewerToken?: string | undefined },
): Promise<ChatViewer> {
  const found = credentials.grant ? await findGrant(context.db, credentials.grant) : undefined;
  const inRoom = found && found.meeting.id === meeting.id && found.participant.state === 'admitted' ? found : undefined;
  return {
    user: credentials.user,
    guestId: openViewerToken(context, credentials.viewerToken),
    roomRole: inRoom?.participant.role,
  };
}

/** The channel owner, the meeting's host and co-hosts (by account or in the room), administrators. */
export async function canModerate(context: AppContext, meeting: MeetingRow, viewer: ChatViewer): Promise<boolean> {
  if (viewer.roomRole === 'host' || viewer.roomRole === 'cohost') return true;
  return isModeratorAccount(context, meeting, viewer.user);
}

export async function isModeratorAccount(context: AppContext, meeting: MeetingRow, user: UserRow | undefined) {
  if (!user) return false;
  if (user.roleId === ROLE.admin || (await managesMeeting(context, meeting, user))) return true;
  return (await channelOwnerId(context, meeting)) === user.id;
}

async function channelOwnerId(context: AppContext, meeting: MeetingRow) {
  if (!meeting.channelId) return undefined;
  const [channel] = await context.db
    .select({ ownerId: channels.ownerId })
    .from(channels)
    .where(eq(channels.id, meeting.channelId));
  return channel?.ownerId;
}
