import { randomBytes } from 'node:crypto';
import { ROLE } from '@meetcast/contracts';
import { channels, eq, type MeetingRow, type UserRow } from '@meetcast/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { readCookie, setCookie } from '../http/cookies.js';
import { findGrant } from '../rooms/grants.js';
import { managesMeeting } from '../rooms/room-service.js';
import { secretsBoxFor, SecretsUnreadableError } from '../platform/secrets-box.js';

/** Marks a sealed value as a viewer identity, so no other sealed secret can pass for one. */
const IDENTITY_PREFIX = 'viewer-chat:v1:';

/** The browser's own id, sealed into an HttpOnly cookie the server sets: the page's scripts never see it. */
export const VIEWER_BROWSER_COOKIE = 'meetcast_viewer_browser';
const BROWSER_PREFIX = 'viewer-browser:v1:';
const BROWSER_COOKIE_SECONDS = 365 * 24 * 3600;

export const newViewerId = () => randomBytes(16).toString('base64url');

/**
 * A guest's identity: an id sealed (AES-256-GCM, the server's SECRETS_KEY) into the token the
 * browser keeps. The browser cannot read or forge another id. It is the browser's own id (its
 * cookie) when it has one, so asking again for an identity from the same browser gives the same one,
 * and a ban on it holds.
 */
export function newViewerToken(context: AppContext, guestId = newViewerId()): string {
  return secretsBoxFor(context.config).seal(`${IDENTITY_PREFIX}${guestId}`);
}

function openSealed(context: AppContext, sealed: string | undefined, prefix: string) {
  if (!sealed) return undefined;
  try {
    const plain = secretsBoxFor(context.config).open(sealed);
    return plain.startsWith(prefix) ? plain.slice(prefix.length) : undefined;
  } catch (error) {
    if (error instanceof SecretsUnreadableError) return undefined;
    throw error;
  }
}

/** The id of the browser that sent this request, from the cookie this server set; undefined otherwise. */
export function viewerBrowserOf(context: AppContext, request: FastifyRequest): string | undefined {
  return openSealed(context, readCookie(request, VIEWER_BROWSER_COOKIE), BROWSER_PREFIX);
}

/** Gives a browser its id (or renews the one it has), in an HttpOnly cookie. */
export function setViewerBrowser(context: AppContext, reply: FastifyReply, browserId: string) {
  setCookie(reply, VIEWER_BROWSER_COOKIE, secretsBoxFor(context.config).seal(`${BROWSER_PREFIX}${browserId}`), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: context.config.publicUrl.startsWith('https:'),
    maxAge: BROWSER_COOKIE_SECONDS,
  });
}

/** A keyed hash of the client's address: bans and slow mode hold by it, and no address is stored. */
export const viewerAddressKey = (context: AppContext, address: string) =>
  secretsBoxFor(context.config).sign('viewer-chat-address', address);

/** The guest id a viewer token names, or undefined when it is missing, altered or not ours. */
export function openViewerToken(context: AppContext, token: string | undefined): string | undefined {
  return openSealed(context, token, IDENTITY_PREFIX);
}

/** Who is asking, from whatever credentials the call or the socket carried. */
export interface ChatViewer {
  user: UserRow | undefined;
  guestId: string | undefined;
  /** The room participant a grant names, when it is a grant of this meeting. */
  roomRole: string | undefined;
  /** The browser's cookie id and the keyed hash of the address, when the call came over HTTP. */
  browserId?: string | undefined;
  addressKey?: string | undefined;
}

export async function chatViewer(
  context: AppContext,
  meeting: MeetingRow,
  credentials: {
    user: UserRow | undefined;
    grant?: string | undefined;
    viewerToken?: string | undefined;
    request?: FastifyRequest;
  },
): Promise<ChatViewer> {
  const found = credentials.grant ? await findGrant(context.db, credentials.grant) : undefined;
  const inRoom = found && found.meeting.id === meeting.id && found.participant.state === 'admitted' ? found : undefined;
  return {
    user: credentials.user,
    guestId: openViewerToken(context, credentials.viewerToken),
    roomRole: inRoom?.participant.role,
    browserId: credentials.request ? viewerBrowserOf(context, credentials.request) : undefined,
    addressKey: credentials.request ? viewerAddressKey(context, credentials.request.ip) : undefined,
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
