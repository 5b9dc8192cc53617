import { broadcastDestinations, eq, liveBroadcasts } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beatComposerHeart, moveBroadcast, requireBroadcastMove } from '../../src/streaming/state/broadcast-state.js';
import {
  addDestination,
  moveDestination,
  removeDestination,
  requireDestinationMove,
} from '../../src/streaming/state/destination-state.js';
import {
  BROADCAST_TRANSITIONS,
  DESTINATION_TRANSITIONS,
  IllegalTransitionError,
  type BroadcastState,
  type DestinationState,
} from '../../src/streaming/state/transitions.js';
import { insertMeeting } from '../room-helpers.js';
import { BACKENDS } from '../test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from '../test-server.js';

const BROADCAST_STATES = Object.keys(BROADCAST_TRANSITIONS) as BroadcastState[];
const DESTINATION_STATES = Object.keys(DESTINATION_TRANSITIONS) as DestinationState[];

/**
 * The one owner of a broadcast's state (ADR 020): every move of the tables is tried from every
 * state, the legal ones happen, the others change nothing and say so, and each committed write
 * announces `broadcast.changed` exactly once.
 */
describe.each(BACKENDS)('broadcast state owner (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  const announced: number[] = [];

  beforeAll(async () => {
    [server, host] = await startWithPeople(backend, 'State Host');
    server.built.context.events.on('broadcast.changed', ({ broadcastId }) => void announced.push(broadcastId));
  });
  afterAll(() => server.close());

  const db = () => server.built.context.db;
  /** A broadcast put in `state` directly (the test sets the scene; the code under test moves it). */
  async function broadcastIn(state: BroadcastState) {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const [row] = await db()
      .insert(liveBroadcasts)
      .values({ meetingId: meeting.id, startedBy: host.user.id, state })
      .returning();
    return row!;
  }
  async function destinationIn(broadcast: { id: number }, state: DestinationState, removed = false) {
    const [row] = await db()
      .insert(broadcastDestinations)
      .values({ broadcastId: broadcast.id, platform: 'rtmp', name: 'Receiver', title: 'Show', state, removed })
      .returning();
    return row!;
  }
  const announcementsOf = (id: number) => announced.filter((entry) => entry === id).length;

  it('moves a broadcast only along the table, refuses every other move, and announces each move once', async () => {
    for (const from of BROADCAST_STATES) {
      for (const to of BROADCAST_STATES) {
        const broadcast = await broadcastIn(from);
        const isLegal = BROADCAST_TRANSITIONS[from].includes(to);
        const moved = await moveBroadcast(server.built.context, broadcast.id, to);
        const [stored] = await db().select().from(liveBroadcasts).where(eq(liveBroadcasts.id, broadcast.id));
        expect({ from, to, moved: Boolean(moved), state: stored!.state }).toEqual({
          from,
          to,
          moved: isLegal,
          state: isLegal ? to : from,
        });
        expect(announcementsOf(broadcast.id)).toBe(isLegal ? 1 : 0);
        if (isLegal && (to === 'ended' || to === 'failed')) expect(stored!.endedAt).not.toBeNull();
        if (!isLegal) {
          await expect(requireBroadcastMove(server.built.context, broadcast.id, to)).rejects.toBeInstanceOf(
            IllegalTransitionError,
          );
        }
      }
    }
    // `ended` is written once: a second end (a stop racing the composer's own) changes nothing.
    const racing = await broadcastIn('live');
    expect(await moveBroadcast(server.built.context, racing.id, 'ended')).toBeDefined();
    expect(await moveBroadcast(server.built.context, racing.id, 'ended')).toBeUndefined();
    expect(await moveBroadcast(server.built.context, racing.id, 'failed')).toBeUndefined();
    expect(announcementsOf(racing.id)).toBe(1);
  });

  it('moves a destination only along its own table; only `ended` reaches one the host removed', async () => {
    const broadcast = await broadcastIn('live');
    for (const from of DESTINATION_STATES) {
      for (const to of DESTINATION_STATES) {
        const destination = await destinationIn(broadcast, from);
        const before = announcementsOf(broadcast.id);
        // Staying in a running state is an update of its values (a second failed attempt while starting).
        const isLegal =
          DESTINATION_TRANSITIONS[from].includes(to) ||
          (from === to && ['starting', 'live', 'reconnecting'].includes(to));
        const moved = await moveDestination(server.built.context, broadcast, destination.id, to);
        const [stored] = await db()
          .select()
          .from(broadcastDestinations)
          .where(eq(broadcastDestinations.id, destination.id));
        expect({ from, to, moved: Boolean(moved), state: stored!.state }).toEqual({
          from,
          to,
          moved: isLegal,
          state: isLegal ? to : from,
        });
        expect(announcementsOf(broadcast.id) - before).toBe(isLegal ? 1 : 0);
        if (!isLegal) {
          await expect(
            requireDestinationMove(server.built.context, broadcast, destination.id, to),
          ).rejects.toBeInstanceOf(IllegalTransitionError);
        }
      }
    }
    const removed = await destinationIn(broadcast, 'live', true);
    expect(await moveDestination(server.built.context, broadcast, removed.id, 'reconnecting')).toBeUndefined();
    expect(await moveDestination(server.built.context, broadcast, removed.id, 'ended')).toMatchObject({
      state: 'ended',
    });
    // A destination of another broadcast is not this one's to move.
    const other = await broadcastIn('live');
    const foreign = await destinationIn(other, 'live');
    expect(await moveDestination(server.built.context, broadcast, foreign.id, 'ended')).toBeUndefined();
  });

  it('adds a destination again as a fresh row after removal or failure, and leaves a running one as it is', async () => {
    const connection = await server.post<{ data: { id: number } }>('add-rtmp-destination.php', {
      token: host.token,
      name: 'Readd',
      url: 'rtmp://127.0.0.1:1935/live',
      stream_key: 'readd-key',
    });
    const connectionId = connection.body.data!.data.id;
    const broadcast = await broadcastIn('live');
    const values = { connectionId, platform: 'rtmp' as const, name: 'Readd', title: 'Show' };
    const first = await addDestination(server.built.context, broadcast, values);
    expect(first.state).toBe('starting');
    // Added again while it runs: the same row, nothing restarted.
    expect((await addDestination(server.built.context, broadcast, values)).id).toBe(first.id);
    await moveDestination(server.built.context, broadcast, first.id, 'live');
    expect(await removeDestination(server.built.context, broadcast, connectionId)).toMatchObject({ removed: true });
    expect(await removeDestination(server.built.context, broadcast, connectionId)).toBeUndefined();
    // Removed while live and added back before its push ended: a new row, so the composer ends the
    // old push and starts a new one.
    const second = await addDestination(server.built.context, broadcast, values);
    expect(second).toMatchObject({ state: 'starting', removed: false });
    expect(second.id).not.toBe(first.id);
    await moveDestination(server.built.context, broadcast, second.id, 'failed', {
      error: 'broadcasts.destination_refused',
    });
    // Retry of a failed one.
    const third = await addDestination(server.built.context, broadcast, values);
    expect(third).toMatchObject({ state: 'starting', error: null });
    expect(third.id).not.toBe(second.id);
    const rows = await db()
      .select()
      .from(broadcastDestinations)
      .where(eq(broadcastDestinations.broadcastId, broadcast.id));
    expect(rows.map((row) => row.id)).toEqual([third.id]);
  });

  it('announces nothing for a composer heartbeat, the one write nobody is shown', async () => {
    const broadcast = await broadcastIn('live');
    await db().update(liveBroadcasts).set({ composerId: 'worker-1' }).where(eq(liveBroadcasts.id, broadcast.id));
    await beatComposerHeart(server.built.context, [broadcast.id], 'worker-1');
    const [stored] = await db().select().from(liveBroadcasts).where(eq(liveBroadcasts.id, broadcast.id));
    expect(stored!.composerHeartbeatAt).not.toBeNull();
    expect(announcementsOf(broadcast.id)).toBe(0);
  });
});
