import { sceneChapterKind, type BroadcastLayout, type DestinationRequest } from '@meetcast/contracts';
import {
  and,
  broadcastDestinations,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  isUniqueViolation,
  liveBroadcasts,
  meetings,
  streamConnections,
  type MeetingRow,
  type UserRow,
  type BroadcastRow,
} from '@meetcast/db';
import type { AppContext } from '../context.js';
import { badRequest, conflict, forbidden, gone, notFound } from '../http/app-error.js';
import { findMeeting, managesMeeting } from '../rooms/room-service.js';
import { overlayImageColumns, type OverlayImageColumns } from './brand-overlay-library.js';
import { recordChapter } from './broadcast-chapters.js';
import { requireFreeSlot, type ComposerCapacity } from './broadcast-limits.js';
import { stageAtStart } from './broadcast-stage.js';
import { sceneColumns, type SceneColumns, type SceneRequest } from './broadcast-scene.js';
import { changeRunningBroadcast, createBroadcast, goLiveBroadcast, moveBroadcast } from './state/broadcast-state.js';
import { notifyChannelFollowers } from '../notifications/channel-followers.js';
import { addDestination, removeDestination } from './state/destination-state.js';

const pick = <Row extends object, Key extends keyof Row>(row: Row, keys: Key[]) =>
  Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<Row, Key>;

/** What the composer workers of this deployment can say before a broadcast is created. */
export async function requireMeeting(context: AppContext, meetId: string): Promise<MeetingRow> {
  const meeting = await findMeeting(context, meetId);
  if (!meeting) throw notFound('room.not_found');
  return meeting;
}

export async function requireManager(context: AppContext, meeting: MeetingRow, user: UserRow) {
  if (!(await managesMeeting(context, meeting, user))) throw forbidden('broadcasts.not_manager');
}

export async function latestBroadcast(context: AppContext, meetingId: number): Promise<BroadcastRow | undefined> {
  const [row] = await context.db
    .select()
    .from(liveBroadcasts)
    .where(eq(liveBroadcasts.meetingId, meetingId))
    .orderBy(desc(liveBroadcasts.id))
    .limit(1);
  return row;
}

/** The latest broadcast the public may know of: a rehearsal (ADR 047), running or past, is not one. */
export async function latestPublicBroadcast(context: AppContext, meetingId: number): Promise<BroadcastRow | undefined> {
  const [row] = await context.db
    .select()
    .from(liveBroadcasts)
    .where(and(eq(liveBroadcasts.meetingId, meetingId), eq(liveBroadcasts.rehearsal, false)))
    .orderBy(desc(liveBroadcasts.id))
    .limit(1);
  return row;
}

export async function runningBroadcast(context: AppContext, meetingId: number) {
  const [row] = await context.db
    .select()
    .from(liveBroadcasts)
    .where(and(eq(liveBroadcasts.meetingId, meetingId), inArray(liveBroadcasts.state, ['starting', 'live'])));
  return row;
}

/** The caller's own, usable connections for these requests, in order; anything else is refused. */
export async function requireUsableConnections(context: AppContext, user: UserRow, requests: DestinationRequest[]) {
  const ids = requests.map((request) => request.connection_id);
  if (new Set(ids).size !== ids.length) throw badRequest('broadcasts.duplicate_destination');
  if (ids.length === 0) return [];
  const connections = await context.db
    .select()
    .from(streamConnections)
    .where(and(inArray(streamConnections.id, ids), eq(streamConnections.userId, user.id)));
  return requests.map((request) => {
    const connection = connections.find((row) => row.id === request.connection_id);
    if (!connection || connection.status !== 'connected') throw badRequest('broadcasts.connection_unusable');
    return connection;
  });
}

async function destinationRows(
  context: AppContext,
  user: UserRow,
  meeting: MeetingRow,
  requests: DestinationRequest[],
) {
  const connections = await requireUsableConnections(context, user, requests);
  return requests.map((request, index) => {
    const connection = connections[index]!;
    return {
      connectionId: connection.id,
      platform: connection.platform,
      name: connection.name,
      title: request.title || meeting.name,
      description: request.description ?? '',
      privacy: connection.platform === 'youtube' ? (request.privacy ?? 'public') : null,
      category: connection.platform === 'twitch' ? (request.category ?? null) : null,
    };
  });
}

/**
 * Starts a broadcast of a meeting, or answers the one already running: a retried call never makes
 * a second (the database allows one running broadcast per meeting, whatever races).
 */
export async function startBroadcast(
  context: AppContext,
  composers: ComposerCapacity,
  input: {
    user: UserRow;
    meetId: string;
    destinations: DestinationRequest[];
    record: boolean;
    scene?: SceneRequest;
    /** Stored as the row's quality until a composer claims it and writes what it can afford (ADR 050). */
    quality?: '720p30' | '1080p30';
    /** A rehearsal (ADR 047): seen in the studio only, so neither destinations nor a recording yet. */
    rehearsal?: boolean;
  },
): Promise<{ broadcast: BroadcastRow; meeting: MeetingRow }> {
  // The scene the stream starts on (ADR 042); checked before anything is stored.
  const scene = sceneColumns(input.scene ?? {}, Date.now());
  const meeting = await requireMeeting(context, input.meetId);
  if (meeting.state === 'ended' || meeting.state === 'cancelled') throw gone('room.ended');
  await requireManager(context, meeting, input.user);
  const running = await runningBroadcast(context, meeting.id);
  if (running) return { broadcast: running, meeting };
  if (input.rehearsal) {
    // Nothing leaves the server while rehearsing: destinations and the recording come with "Go live".
    if (input.destinations.length > 0 || input.record) throw badRequest('broadcasts.rehearsal_private');
  } else if (input.destinations.length === 0 && !input.record) {
    throw badRequest('broadcasts.nothing_to_do');
  }
  const rows = await destinationRows(context, input.user, meeting, input.destinations);
  try {
    const broadcast = await createBroadcast(
      context,
      {
        meetingId: meeting.id,
        startedBy: input.user.id,
        record: input.record,
        rehearsal: input.rehearsal === true,
        quality: input.quality ?? null,
        ...scene,
        onStage: await stageAtStart(context, meeting.id),
      },
      rows,
      (tx) => requireFreeSlot(context, composers, input.user, tx),
    );
    // Starting on a holding screen is the replay's first chapter (at 0); the show itself needs none.
    const opening = scene.overlayScene;
    if (opening && opening !== 'live') await recordChapter(context, broadcast, sceneChapterKind(opening));
    composers.nudge();
    return { broadcast, meeting };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await runningBroadcast(context, meeting.id);
    if (!raced) throw conflict('broadcasts.not_running');
    return { broadcast: raced, meeting };
  }
}

export async function requireRunning(context: AppContext, user: UserRow, meetId: string) {
  const meeting = await requireMeeting(context, meetId);
  await requireManager(context, meeting, user);
  const broadcast = await runningBroadcast(context, meeting.id);
  if (!broadcast) throw conflict('broadcasts.not_running');
  return { broadcast, meeting };
}

/** The meetings ended (rooms' `meeting.ended`): their running broadcasts are asked to stop, without waiting. */
export async function stopBroadcastsOf(context: AppContext, composers: ComposerCapacity, meetingIds: number[]) {
  let stopping = 0;
  for (const meetingId of meetingIds) {
    const running = await runningBroadcast(context, meetingId);
    if (running && (await changeRunningBroadcast(context, running.id, { stopRequested: true }))) stopping++;
  }
  if (stopping > 0) composers.nudge();
}

/** How long a stop waits for its broadcast to end before answering the state it is in (the budget is 2 s). */
export const STOP_ANSWER_WITHIN_MS = 1800;

const isFinal = (row: BroadcastRow) => row.state === 'ended' || row.state === 'failed';

/**
 * Asks the composer to end the broadcast (it hears it at once, wherever it runs) and waits for it
 * to have ended, STOP_ANSWER_WITHIN_MS at most: the answer is the broadcast's true state, `hasEnded`
 * false when it is still ending.
 */
export async function stopBroadcast(context: AppContext, composers: ComposerCapacity, user: UserRow, meetId: string) {
  const { broadcast, meeting } = await requireRunning(context, user, meetId);
  // No composer ever took it: nothing runs, it simply ends (unless one takes it this very moment).
  const endedHere = broadcast.composerId
    ? undefined
    : await moveBroadcast(context, broadcast.id, 'ended', { stopRequested: true }, isNull(liveBroadcasts.composerId));
  if (endedHere) return { broadcast: endedHere, meeting, hasEnded: true };
  await changeRunningBroadcast(context, broadcast.id, { stopRequested: true });
  composers.nudge();
  const deadline = Date.now() + STOP_ANSWER_WITHIN_MS;
  let latest = broadcast;
  for (;;) {
    // Listening before reading: a change between the two is not missed.
    const remaining = deadline - Date.now();
    const next =
      composers.nextChange?.(broadcast.id, remaining) ??
      new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, remaining)));
    const [row] = await context.db.select().from(liveBroadcasts).where(eq(liveBroadcasts.id, broadcast.id));
    latest = row ?? latest;
    if (isFinal(latest) || remaining <= 0) break;
    await next;
  }
  return { broadcast: latest, meeting, hasEnded: isFinal(latest) };
}

/**
 * Ends a rehearsal (ADR 047): the running broadcast becomes public, with these destinations and the
 * recording if asked; its composer starts them on the encode that already runs. A broadcast that is
 * not (or no longer) a rehearsal is answered as it is: a second click changes nothing.
 */
export async function goLive(
  context: AppContext,
  composers: ComposerCapacity,
  input: { user: UserRow; meetId: string; destinations: DestinationRequest[]; record: boolean },
) {
  const { broadcast, meeting } = await requireRunning(context, input.user, input.meetId);
  if (!broadcast.rehearsal) return { broadcast, meeting };
  const rows = await destinationRows(context, input.user, meeting, input.destinations);
  const updated = await goLiveBroadcast(context, broadcast.id, { record: input.record }, rows);
  if (!updated) return { broadcast: (await runningBroadcast(context, meeting.id)) ?? broadcast, meeting };
  composers.nudge();
  // The followers hear of it now, not when the rehearsal's encode started (the composer said nothing then).
  if (updated.state === 'live' && meeting.channelId) {
    notifyChannelFollowers(context, meeting.id, 'live').catch((error: unknown) =>
      context.log.warn({ err: error, broadcastId: broadcast.id }, 'could not tell the channel followers'),
    );
  }
  return { broadcast: updated, meeting };
}

/** Adds one destination to a running broadcast, or takes one off it. */
export async function changeDestination(
  context: AppContext,
  composers: ComposerCapacity,
  input: { user: UserRow; meetId: string; add: DestinationRequest | undefined; removeConnectionId: number | undefined },
) {
  const { broadcast, meeting } = await requireRunning(context, input.user, input.meetId);
  // A rehearsal streams nowhere (ADR 047): its destinations come with go-live.php.
  if (input.add && broadcast.rehearsal) throw badRequest('broadcasts.rehearsal_private');
  if (input.add) {
    const [row] = await destinationRows(context, input.user, meeting, [input.add]);
    if (!row) throw badRequest('broadcasts.connection_unusable');
    // Retry (the connection alone, added again): the title and settings it had stay.
    const { title, description, privacy, category } = input.add;
    const isRetry = title === undefined && description === undefined && !privacy && category === undefined;
    const [previous] = isRetry
      ? await context.db
          .select()
          .from(broadcastDestinations)
          .where(
            and(
              eq(broadcastDestinations.broadcastId, broadcast.id),
              eq(broadcastDestinations.connectionId, row.connectionId),
            ),
          )
      : [];
    if (previous) Object.assign(row, pick(previous, ['title', 'description', 'privacy', 'category']));
    await addDestination(context, broadcast, row);
  } else if (input.removeConnectionId !== undefined) {
    const removed = await removeDestination(context, broadcast, input.removeConnectionId);
    if (!removed) throw notFound();
  } else {
    throw badRequest('broadcasts.nothing_to_do');
  }
  composers.nudge();
  return { broadcast, meeting };
}

/** Logo, lower-third banner, ticker, layout and scene; a field not sent stays, an empty text is cleared. */
export async function setOverlay(
  context: AppContext,
  input: {
    user: UserRow;
    meetId: string;
    logoUrl?: string;
    banner?: string;
    ticker?: string;
    layout?: BroadcastLayout;
    /** `kit`, `none` or a library overlay's id (issue 45); one not in the host's kit is a 404. */
    overlayImage?: 'kit' | 'none' | number;
    scene?: SceneRequest;
  },
) {
  const scene = sceneColumns(input.scene ?? {}, Date.now());
  const { broadcast, meeting } = await requireRunning(context, input.user, input.meetId);
  const image =
    input.overlayImage === undefined
      ? undefined
      : await overlayImageColumns(context, meeting.hostId, input.overlayImage);
  const value = (text: string | undefined) => (text === undefined ? undefined : text.trim() || null);
  const updated = await writeOverlay(context, broadcast.id, {
    logoUrl: value(input.logoUrl),
    banner: value(input.banner),
    ticker: value(input.ticker),
    layout: input.layout,
    image,
    scene,
  });
  return { broadcast: updated ?? broadcast, meeting };
}

/**
 * The overlay columns the composer's layout page follows, for the Live panel and for a viewer-chat
 * message put on the stream; a field left undefined stays, null clears it.
 */
export async function writeOverlay(
  context: AppContext,
  broadcastId: number,
  overlay: {
    logoUrl?: string | null;
    banner?: string | null;
    ticker?: string | null;
    layout?: BroadcastLayout;
    image?: OverlayImageColumns;
    scene?: SceneColumns;
  },
) {
  const scene = overlay.scene?.overlayScene;
  const [before] =
    overlay.layout === undefined && scene === undefined
      ? []
      : await context.db
          .select({ layout: liveBroadcasts.overlayLayout, scene: liveBroadcasts.overlayScene })
          .from(liveBroadcasts)
          .where(eq(liveBroadcasts.id, broadcastId));
  const updated = await changeRunningBroadcast(context, broadcastId, {
    overlayLogoUrl: overlay.logoUrl,
    overlayBanner: overlay.banner,
    overlayTicker: overlay.ticker,
    overlayLayout: overlay.layout,
    ...overlay.image,
    ...overlay.scene,
  });
  // A new layout is a chapter of the replay (ADR 048); the same one picked again is not.
  if (updated && overlay.layout !== undefined && before?.layout !== overlay.layout) {
    await recordChapter(context, updated, 'layout', overlay.layout);
  }
  // So is a new scene (Be right back…, ADR 042); a message or countdown change alone is not.
  if (updated && scene !== undefined && before?.scene !== scene) {
    await recordChapter(context, updated, sceneChapterKind(scene));
  }
  return updated;
}

/** Recordings of the meetings the user hosts, newest first. */
export async function listRecordings(context: AppContext, user: UserRow) {
  return context.db
    .select({ broadcast: liveBroadcasts, meeting: meetings })
    .from(liveBroadcasts)
    .innerJoin(meetings, eq(meetings.id, liveBroadcasts.meetingId))
    .where(and(eq(meetings.hostId, user.id), isNotNull(liveBroadcasts.recordingFile)))
    .orderBy(desc(liveBroadcasts.id));
}
