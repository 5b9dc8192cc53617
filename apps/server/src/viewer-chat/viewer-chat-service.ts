import {
  STREAMING_LIMITS,
  VIEWER_CHAT_LIMITS,
  type ViewerChatMessage,
  type ViewerChatState,
} from '@meetcast/contracts';
import {
  and,
  desc,
  eq,
  gt,
  inArray,
  isNull,
  liveBroadcasts,
  or,
  users,
  viewerChatBans,
  viewerChatMessages,
  viewerChatSettings,
} from '@meetcast/db';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { AppError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../http/app-error.js';
import { writeOverlay } from '../streaming/broadcast-service.js';
import type { ChatMarks } from './chat-marks.js';
import { isRunning, type ChatScope } from './viewer-chat-access.js';
import { isModeratorAccount } from './viewer-identity.js';
import { toEpochSeconds } from '../platform/time.js';

type MessageRow = typeof viewerChatMessages.$inferSelect;
type Author = { userId: number | null; guestId: string | null };

const OriginSchema = z.object({ browserId: z.string().optional(), addressKey: z.string().optional() });
type Origin = z.infer<typeof OriginSchema>;

function parseOrigin(text: string | undefined): Origin {
  if (!text) return {};
  try {
    const parsed = OriginSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Per viewer: a burst of 5 messages in 10 seconds, whatever the slow mode says. */
export const VIEWER_CHAT_RATE = { name: 'viewer-chat-post', limit: 5, windowSeconds: 10 };

export function toMessage(row: MessageRow, hostIds: Set<number>): ViewerChatMessage {
  return {
    id: row.id,
    author: {
      kind: row.guestId ? 'guest' : 'user',
      display_name: row.displayName,
      is_host: row.userId !== null && hostIds.has(row.userId),
    },
    text: row.text,
    offset_seconds: row.offsetMs / 1000,
    created_at: toEpochSeconds(row.createdAt),
  };
}

/** The accounts among these authors who moderate the chat (shown with a host mark). */
async function moderatorIds(context: AppContext, scope: ChatScope, rows: MessageRow[]) {
  const ids = [...new Set(rows.flatMap((row) => (row.userId === null ? [] : [row.userId])))];
  const found = new Set<number>();
  for (const id of ids) {
    const [user] = await context.db.select().from(users).where(eq(users.id, id));
    if (await isModeratorAccount(context, scope.meeting, user)) found.add(id);
  }
  return found;
}

export async function describeMessages(context: AppContext, scope: ChatScope, rows: MessageRow[]) {
  const hosts = await moderatorIds(context, scope, rows);
  return rows.map((row) => toMessage(row, hosts));
}

async function settingsOf(context: AppContext, broadcastId: number) {
  const [settings] = await context.db
    .select()
    .from(viewerChatSettings)
    .where(eq(viewerChatSettings.broadcastId, broadcastId));
  return settings ?? { broadcastId, slowModeSeconds: 0, pinnedMessageId: null };
}

const authorOf = (scope: ChatScope): Author | undefined =>
  scope.viewer.user
    ? { userId: scope.viewer.user.id, guestId: null }
    : scope.viewer.guestId
      ? { userId: null, guestId: scope.viewer.guestId }
      : undefined;

/** How long a ban or time-out also holds for the browser and the address its message came from. */
export const BROWSER_AND_ADDRESS_BAN_MS = 24 * 3600 * 1000;
/** Where a message came from, remembered as long as a ban may reach it by that. */
const ORIGIN_MEMORY_MS = BROWSER_AND_ADDRESS_BAN_MS;

/**
 * The restriction rows' guest ids that reach a viewer: their own identity, their browser's cookie id
 * (a guest identity is the browser's id, so a ban on one is a ban on the other) and, for a guest, for
 * a while, the keyed hash of their address, stored as `address:{hash}`. An account is no identity
 * made in a second, so the accounts behind the same address (a school, an office) are not touched.
 */
const addressTarget = (addressKey: string) => `address:${addressKey}`;
function guestTargets(author: Author | undefined, viewer: ChatScope['viewer']) {
  const targets = new Set<string>();
  if (author?.guestId) targets.add(author.guestId);
  if (viewer.browserId) targets.add(viewer.browserId);
  if (viewer.addressKey && author?.userId == null) targets.add(addressTarget(viewer.addressKey));
  return [...targets];
}

/** The ban or a running time-out of this viewer in this meeting, by account, browser or address. */
async function restrictionOf(context: AppContext, meetingId: number, author: Author | undefined, scope: ChatScope) {
  const guests = guestTargets(author, scope.viewer);
  const whom = [
    ...(author?.userId != null ? [eq(viewerChatBans.userId, author.userId)] : []),
    ...(guests.length > 0 ? [inArray(viewerChatBans.guestId, guests)] : []),
  ];
  if (whom.length === 0) return undefined;
  const rows = await context.db
    .select()
    .from(viewerChatBans)
    .where(
      and(
        eq(viewerChatBans.meetingId, meetingId),
        or(...whom),
        or(isNull(viewerChatBans.until), gt(viewerChatBans.until, new Date())),
      ),
    );
  // A ban outweighs a time-out; of two time-outs, the longer one.
  return rows.sort((a, b) => (b.until?.getTime() ?? Infinity) - (a.until?.getTime() ?? Infinity))[0];
}

/** The chat as the page shows it: latest messages while live, the whole conversation for a replay. */
export async function chatState(context: AppContext, scope: ChatScope): Promise<ViewerChatState | null> {
  const { broadcast } = scope;
  if (!broadcast) return null;
  const isOpen = isRunning(broadcast);
  const rows = await context.db
    .select()
    .from(viewerChatMessages)
    .where(eq(viewerChatMessages.broadcastId, broadcast.id))
    .orderBy(desc(viewerChatMessages.id))
    .limit(isOpen ? VIEWER_CHAT_LIMITS.liveHistory : VIEWER_CHAT_LIMITS.replayHistory);
  rows.reverse();
  const settings = await settingsOf(context, broadcast.id);
  const [pinnedRow] = settings.pinnedMessageId
    ? await context.db.select().from(viewerChatMessages).where(eq(viewerChatMessages.id, settings.pinnedMessageId))
    : [];
  const described = await describeMessages(context, scope, pinnedRow ? [...rows, pinnedRow] : rows);
  const author = authorOf(scope);
  const restriction = await restrictionOf(context, scope.meeting.id, author, scope);
  return {
    broadcast_id: broadcast.id,
    broadcast_state: broadcast.state,
    is_open: isOpen,
    slow_mode_seconds: settings.slowModeSeconds,
    pinned: pinnedRow ? (described.at(-1) ?? null) : null,
    messages: pinnedRow ? described.slice(0, -1) : described,
    can_moderate: scope.isModerator,
    self: {
      display_name: scope.viewer.user?.username ?? null,
      is_guest: !scope.viewer.user,
      is_banned: Boolean(restriction && !restriction.until),
      muted_until: restriction?.until ? toEpochSeconds(restriction.until) : null,
    },
  };
}

/** Posts a message: open chat, a known author, not banned or timed out, within the rate and slow mode. */
export async function postMessage(
  context: AppContext,
  scope: ChatScope,
  marks: ChatMarks,
  input: { text: string; displayName: string | undefined },
): Promise<ViewerChatMessage> {
  const { broadcast } = scope;
  if (!broadcast || !isRunning(broadcast)) throw conflict('viewer_chat.closed');
  const author = authorOf(scope);
  if (!author) throw badRequest('viewer_chat.identity_needed');
  const displayName = scope.viewer.user?.username ?? input.displayName;
  if (!displayName) throw badRequest('viewer_chat.name_needed');
  const restriction = await restrictionOf(context, scope.meeting.id, author, scope);
  if (restriction) throw forbidden(restriction.until ? 'viewer_chat.timed_out' : 'viewer_chat.banned');
  const authorKey = `${scope.meeting.id}:${author.userId ?? `g:${author.guestId}`}`;
  const verdict = await context.limiter.hit(VIEWER_CHAT_RATE, authorKey);
  if (!verdict.allowed) throw tooManyRequests(verdict.retryAfterSeconds);
  if (!scope.isModerator) await enforceSlowMode(context, marks, broadcast.id, author, scope.viewer);
  const now = new Date();
  const startedAt = broadcast.startedAt ?? broadcast.createdAt;
  const [row] = await context.db
    .insert(viewerChatMessages)
    .values({
      broadcastId: broadcast.id,
      userId: author.userId,
      guestId: author.guestId,
      displayName,
      text: input.text,
      offsetMs: Math.max(0, now.getTime() - startedAt.getTime()),
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('viewer chat message not stored');
  const origin: Origin = { browserId: scope.viewer.browserId, addressKey: scope.viewer.addressKey };
  await marks.remember(`origin:${row.id}`, JSON.stringify(origin), ORIGIN_MEMORY_MS);
  return toMessage(row, new Set(scope.isModerator && author.userId !== null ? [author.userId] : []));
}

/**
 * Slow mode holds per identity, per browser and, for guests, per address: new identities from one
 * browser or one address share its turn. The turns are taken atomically, so messages sent at once cannot pass
 * together.
 */
async function enforceSlowMode(
  context: AppContext,
  marks: ChatMarks,
  broadcastId: number,
  author: Author,
  viewer: ChatScope['viewer'],
) {
  const { slowModeSeconds } = await settingsOf(context, broadcastId);
  if (slowModeSeconds === 0) return;
  const [last] = await context.db
    .select({ createdAt: viewerChatMessages.createdAt })
    .from(viewerChatMessages)
    .where(
      and(
        eq(viewerChatMessages.broadcastId, broadcastId),
        author.userId !== null
          ? eq(viewerChatMessages.userId, author.userId)
          : eq(viewerChatMessages.guestId, author.guestId!),
      ),
    )
    .orderBy(desc(viewerChatMessages.id))
    .limit(1);
  let waitMs = last ? last.createdAt.getTime() + slowModeSeconds * 1000 - Date.now() : 0;
  if (waitMs <= 0) {
    const turns = [
      `slow:${broadcastId}:${author.userId ?? `g:${author.guestId}`}`,
      ...(viewer.browserId ? [`slow:${broadcastId}:browser:${viewer.browserId}`] : []),
      // Guests share their address's turn; accounts behind one address each have their own.
      ...(viewer.addressKey && author.userId === null ? [`slow:${broadcastId}:address:${viewer.addressKey}`] : []),
    ];
    for (const turn of turns) waitMs = Math.max(waitMs, await marks.claim(turn, slowModeSeconds * 1000));
  }
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new AppError(429, 'viewer_chat.slow_mode', { count: seconds }, { 'retry-after': String(seconds) });
  }
}

export function requireModerator(scope: ChatScope) {
  if (!scope.isModerator) throw forbidden('viewer_chat.not_moderator');
}

/** A message of one of this meeting's broadcasts (moderators act on any of them, replays too). */
export async function requireMessage(context: AppContext, scope: ChatScope, id: number) {
  const [found] = await context.db
    .select({ message: viewerChatMessages })
    .from(viewerChatMessages)
    .innerJoin(liveBroadcasts, eq(liveBroadcasts.id, viewerChatMessages.broadcastId))
    .where(and(eq(viewerChatMessages.id, id), eq(liveBroadcasts.meetingId, scope.meeting.id)));
  if (!found) throw notFound('viewer_chat.message_not_found');
  return found.message;
}

export async function deleteMessage(context: AppContext, scope: ChatScope, id: number) {
  requireModerator(scope);
  const message = await requireMessage(context, scope, id);
  await context.db.delete(viewerChatMessages).where(eq(viewerChatMessages.id, message.id));
  return message;
}

/**
 * Bans, times out or lets back in the author of a message; never a moderator. A ban or time-out
 * also reaches, for a while, the browser and the address the message came from, so that a new
 * identity (or account) from there is refused too; letting back in lifts those as well.
 */
export async function restrictAuthor(
  context: AppContext,
  scope: ChatScope,
  marks: ChatMarks,
  input: { id: number; action: 'ban' | 'timeout' | 'unban'; minutes: number | undefined },
) {
  requireModerator(scope);
  const message = await requireMessage(context, scope, input.id);
  const author: Author = { userId: message.userId, guestId: message.guestId };
  if (author.userId === null && author.guestId === null) throw conflict('viewer_chat.author_gone');
  if (author.userId !== null) {
    const [user] = await context.db.select().from(users).where(eq(users.id, author.userId));
    if (await isModeratorAccount(context, scope.meeting, user)) throw forbidden('viewer_chat.cannot_restrict_host');
  }
  const origin = parseOrigin(await marks.recall(`origin:${message.id}`));
  const linked = [
    ...(origin.browserId && origin.browserId !== author.guestId ? [origin.browserId] : []),
    ...(origin.addressKey ? [addressTarget(origin.addressKey)] : []),
  ];
  const target =
    author.userId !== null ? eq(viewerChatBans.userId, author.userId) : eq(viewerChatBans.guestId, author.guestId!);
  const until = input.action === 'timeout' ? new Date(Date.now() + (input.minutes ?? 10) * 60_000) : null;
  const linkedUntil = new Date(Math.min(until?.getTime() ?? Infinity, Date.now() + BROWSER_AND_ADDRESS_BAN_MS));
  await context.db.transaction(async (tx) => {
    const everyTarget = linked.length > 0 ? or(target, inArray(viewerChatBans.guestId, linked)) : target;
    await tx.delete(viewerChatBans).where(and(eq(viewerChatBans.meetingId, scope.meeting.id), everyTarget));
    if (input.action === 'unban') return;
    const bannedBy = scope.viewer.user?.id ?? null;
    await tx.insert(viewerChatBans).values([
      { meetingId: scope.meeting.id, userId: author.userId, guestId: author.guestId, until, bannedBy },
      ...linked.map((guestId) => ({
        meetingId: scope.meeting.id,
        userId: null,
        guestId,
        until: linkedUntil,
        bannedBy,
      })),
    ]);
  });
  return { author, isBanned: input.action === 'ban', mutedUntil: until ? toEpochSeconds(until) : null };
}

async function storeSettings(
  context: AppContext,
  broadcastId: number,
  change: { slowModeSeconds?: number; pinnedMessageId?: number | null },
) {
  await context.db
    .insert(viewerChatSettings)
    .values({ broadcastId, ...change })
    .onConflictDoUpdate({ target: viewerChatSettings.broadcastId, set: { ...change, updatedAt: new Date() } });
}

function requireBroadcast(scope: ChatScope) {
  if (!scope.broadcast) throw conflict('viewer_chat.closed');
  return scope.broadcast;
}

/** Pins a message of the current broadcast, or unpins (no id). */
export async function pinMessage(context: AppContext, scope: ChatScope, id: number | undefined) {
  requireModerator(scope);
  const broadcast = requireBroadcast(scope);
  const message = id === undefined ? undefined : await requireMessage(context, scope, id);
  if (message && message.broadcastId !== broadcast.id) throw notFound('viewer_chat.message_not_found');
  await storeSettings(context, broadcast.id, { pinnedMessageId: message?.id ?? null });
  return { broadcast, message };
}

export async function setSlowMode(context: AppContext, scope: ChatScope, seconds: number) {
  requireModerator(scope);
  const broadcast = requireBroadcast(scope);
  await storeSettings(context, broadcast.id, { slowModeSeconds: seconds });
  return broadcast;
}

/**
 * Puts a message on the stream as the lower-third banner (or clears it): the same overlay column the
 * Live panel's banner sets, which the composer's layout page follows.
 */
export async function showAsBanner(context: AppContext, scope: ChatScope, id: number | undefined) {
  requireModerator(scope);
  const broadcast = requireBroadcast(scope);
  if (!isRunning(broadcast)) throw conflict('viewer_chat.closed');
  const message = id === undefined ? undefined : await requireMessage(context, scope, id);
  const banner = message ? `${message.displayName}: ${message.text}`.replace(/\s+/g, ' ') : null;
  const limit = STREAMING_LIMITS.overlayText;
  await writeOverlay(context, broadcast.id, {
    banner: banner && banner.length > limit ? `${banner.slice(0, limit - 1)}…` : banner,
  });
}
