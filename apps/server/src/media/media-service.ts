import { randomBytes, randomInt } from 'node:crypto';
import { and, eq, inArray, meetings, roomCredentials, sql, type Database } from '@meetcast/db';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../env.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { JanusClient, JanusError, VIDEOROOM_NO_SUCH_ROOM, VIDEOROOM_ROOM_EXISTS } from './janus-client.js';
import { janusSessionTimeoutSeconds } from './janus-config.js';
import { JanusRegistry, MediaUnavailableError, type JanusTarget } from './janus-registry.js';
import { ManagedJanus } from './managed-janus.js';
import { TurnRelay, type IceServer } from './turn/turn-relay.js';

export { MediaUnavailableError, type JanusTarget } from './janus-registry.js';

export interface PlacedRoom {
  server: string;
  room: number;
  secret: string;
  pin: string;
}

interface MeetingRef {
  id: number;
  name: string;
  /**
   * The placement as the caller read it moments ago (a meeting row of the same request), if it did:
   * a room this process knows on that instance then costs no query at all.
   */
  janusServer?: string | null;
  janusRoomId?: number | null;
}

type RoomCredentials = Pick<PlacedRoom, 'secret' | 'pin'>;

/** Where a meeting's Janus room is, read before the rows that record it are changed or deleted. */
export interface RoomPlacement {
  meetingId: number;
  server: string;
  room: number;
  secret: string;
}

/** The meeting ended (or was deleted) while someone was being placed in its room: nothing is placed. */
export class MeetingClosedError extends Error {
  constructor(readonly meetingId: number) {
    super(`meeting ${meetingId} is no longer open`);
  }
}

/** A room is only placed for a meeting that may still run. */
const OPEN_STATES = ['scheduled', 'live'] as const;

const MAX_PUBLISHERS = 100;

/**
 * The media plane as the rest of the server sees it: which Janus instances exist (JanusRegistry:
 * JANUS_URL, or the one we start and supervise), which one hosts each meeting (least loaded at placement,
 * recorded in `meetings.janus_server` / `janus_room_id`), and the administrative room operations.
 */
export class MediaService {
  private readonly clients = new Map<string, Promise<JanusClient>>();
  readonly managed: ManagedJanus | undefined;
  /** The TURN relay pages are given, with credentials of their own (ADR 035). */
  readonly turn: TurnRelay;
  private readonly registry: JanusRegistry;
  /** Requests sent to Janus for rooms and broadcasts, keep-alives aside (the join bench prints them). */
  janusRequests = 0;
  /**
   * Rooms seen on each instance since this process connected to it, with their credentials. A Janus
   * that restarts drops the connection, and with it what we knew, so its rooms are checked (and
   * re-created) again. A room's credentials never change: a released room's are deleted with its
   * placement, and the next placement draws a new room number.
   */
  private readonly knownRooms = new Map<string, Map<number, RoomCredentials>>();

  constructor(
    private readonly db: Database,
    private readonly config: AppConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    if (config.janusUrls.length === 0) {
      this.managed = new ManagedJanus({
        dataDir: config.dataDir,
        log,
        binary: config.janus.binary,
        rtpPortRange: config.janus.rtpPortRange,
        nat11Mapping: config.janus.nat11Mapping,
        publicUrl: config.publicUrl,
        sessionTimeoutSeconds: janusSessionTimeoutSeconds(config.roomReconnectGraceSeconds),
      });
      this.managed.on('restarted', (url) => {
        this.recreateRooms(url).catch((error: unknown) => log.error({ err: error }, 'media: re-creating rooms failed'));
      });
      this.managed.on('exited', () => this.forgetClients());
    }
    this.registry = new JanusRegistry(db, config, log, this.managed);
    this.turn = new TurnRelay(config, log);
  }

  /** STUN/TURN servers for a participant or viewer's peer connections, with fresh credentials. */
  iceServers(userId: string): Promise<IceServer[]> {
    return this.turn.iceServers(userId);
  }

  /** The instances rooms may be placed on (see JanusRegistry). */
  targets(): Promise<JanusTarget[]> {
    return this.registry.targets();
  }

  /** The secrets for a recorded instance, or undefined when that instance is not ours any more. */
  target(url: string): Promise<JanusTarget | undefined> {
    return this.registry.target(url);
  }

  private forgetClients() {
    this.knownRooms.clear();
    for (const [url, pending] of this.clients) {
      this.clients.delete(url);
      pending.then((client) => client.close()).catch(() => undefined);
    }
  }

  /** The connection to an instance (one per instance, made on first use). */
  client(target: JanusTarget): Promise<JanusClient> {
    const cached = this.clients.get(target.url);
    if (cached) return cached;
    const client = new JanusClient(target.url, { apiSecret: target.apiSecret, adminKey: target.adminKey });
    client.on('request', () => (this.janusRequests += 1));
    const connecting = client.connect().then(
      () => client,
      (error: unknown) => {
        this.clients.delete(target.url);
        client.close();
        throw new MediaUnavailableError(`janus at ${target.url} unreachable: ${String(error)}`);
      },
    );
    client.once('close', () => {
      this.knownRooms.delete(target.url);
      if (this.clients.get(target.url) === connecting) this.clients.delete(target.url);
    });
    this.clients.set(target.url, connecting);
    return connecting;
  }

  private async credentials(meetingId: number): Promise<{ secret: string; pin: string }> {
    await this.db
      .insert(roomCredentials)
      .values({ meetingId, secret: randomBytes(24).toString('base64url'), pin: randomBytes(24).toString('base64url') })
      .onConflictDoNothing();
    const [row] = await this.db.select().from(roomCredentials).where(eq(roomCredentials.meetingId, meetingId));
    if (!row) throw new Error(`no room credentials for meeting ${meetingId}`);
    return row;
  }

  /** Live rooms per instance: the least loaded gets the next meeting. */
  private async leastLoaded(targets: JanusTarget[]): Promise<JanusTarget> {
    const rows = await this.db
      .select({ server: meetings.janusServer, rooms: sql<number>`count(*)::int` })
      .from(meetings)
      .where(
        and(
          inArray(
            meetings.janusServer,
            targets.map((t) => t.url),
          ),
          eq(meetings.state, 'live'),
        ),
      )
      .groupBy(meetings.janusServer);
    const load = new Map(rows.map((row) => [row.server, Number(row.rooms)]));
    const ordered = [...targets].sort((a, b) => (load.get(a.url) ?? 0) - (load.get(b.url) ?? 0));
    for (const target of ordered) {
      try {
        await this.client(target);
        return target;
      } catch (error) {
        this.log.warn({ url: target.url, err: error }, 'media: janus instance unreachable, trying the next');
      }
    }
    throw new MediaUnavailableError('no janus instance reachable');
  }

  private async createIfMissing(client: JanusClient, meeting: MeetingRef, room: number, creds: RoomCredentials) {
    const known = this.knownRooms.get(client.url) ?? new Map<number, RoomCredentials>();
    this.knownRooms.set(client.url, known);
    if (known.has(room) || (await client.exists(room))) {
      known.set(room, creds);
      return;
    }
    try {
      await client.createRoom({
        room,
        secret: creds.secret,
        pin: creds.pin,
        description: meeting.name.slice(0, 100),
        publishers: MAX_PUBLISHERS,
      });
    } catch (error) {
      if (!(error instanceof JanusError && error.code === VIDEOROOM_ROOM_EXISTS)) throw error;
    }
    known.set(room, creds);
  }

  /** The room the caller's fresh placement names, if this process knows it on a live connection. */
  private rememberedRoom({ janusServer: server, janusRoomId: room }: MeetingRef): PlacedRoom | undefined {
    if (!server || !room) return undefined;
    const creds = this.knownRooms.get(server)?.get(room);
    return creds && { server, room, ...creds };
  }

  /**
   * Makes sure the meeting has a Janus room (placing it when it has none) and returns it. A room this
   * process already saw on its instance costs one query and no request to Janus, and no query either
   * when the caller passes the placement it has just read (the room join's click path, ADR 016).
   */
  async ensureRoom(meeting: MeetingRef): Promise<PlacedRoom> {
    const remembered = this.rememberedRoom(meeting);
    if (remembered) return remembered;
    const [current] = await this.db
      .select({
        server: meetings.janusServer,
        room: meetings.janusRoomId,
        secret: roomCredentials.secret,
        pin: roomCredentials.pin,
      })
      .from(meetings)
      .leftJoin(roomCredentials, eq(roomCredentials.meetingId, meetings.id))
      .where(eq(meetings.id, meeting.id));
    const creds =
      current?.secret && current.pin
        ? { secret: current.secret, pin: current.pin }
        : await this.credentials(meeting.id);
    const known = current?.server ? await this.target(current.server) : undefined;
    if (known && current?.room) {
      try {
        await this.createIfMissing(await this.client(known), meeting, current.room, creds);
        return { server: known.url, room: current.room, ...creds };
      } catch (error) {
        if (error instanceof JanusError) throw error;
        this.log.warn({ meetingId: meeting.id, err: error }, 'media: recorded janus unreachable, placing again');
      }
    }
    const target = await this.leastLoaded(await this.targets());
    const room = randomInt(1, 2 ** 31 - 1);
    // Only one process wins the placement; a loser uses the winner's room.
    const claimed = await new MeetingRepository(this.db).claimPlacement(
      meeting.id,
      current?.server ?? undefined,
      target.url,
      room,
    );
    if (!claimed) {
      // Lost to another process, or the meeting ended or went meanwhile (then placing it again
      // would leave a room nobody destroys, and asking again would never end).
      const [still] = await this.db
        .select({ id: meetings.id })
        .from(meetings)
        .where(and(eq(meetings.id, meeting.id), inArray(meetings.state, [...OPEN_STATES])));
      if (!still) throw new MeetingClosedError(meeting.id);
      return this.ensureRoom(meeting);
    }
    await this.createIfMissing(await this.client(target), meeting, room, creds);
    this.log.info({ meetingId: meeting.id, server: target.url, room }, 'media: room placed');
    return { server: target.url, room, ...creds };
  }

  private async placed(meetingId: number) {
    const [placement] = await this.placementsOf([meetingId]);
    const target = placement && (await this.target(placement.server).catch(() => undefined));
    return placement && target ? { client: await this.client(target), ...placement } : undefined;
  }

  /** Where these meetings' rooms are; read before a meeting row (and its placement) is deleted. */
  async placementsOf(meetingIds: number[]): Promise<RoomPlacement[]> {
    if (meetingIds.length === 0) return [];
    const rows = await this.db
      .select({
        meetingId: meetings.id,
        server: meetings.janusServer,
        room: meetings.janusRoomId,
        secret: roomCredentials.secret,
      })
      .from(meetings)
      .innerJoin(roomCredentials, eq(roomCredentials.meetingId, meetings.id))
      .where(inArray(meetings.id, meetingIds));
    return rows.flatMap(({ meetingId, server, room, secret }) =>
      server && room ? [{ meetingId, server, room, secret }] : [],
    );
  }

  /**
   * Where a meeting's broadcast is shown to viewers (ADR 011): a Streaming mountpoint on the Janus
   * that hosts its room, guarded by the room's own secret and pin; `rtpHost` is where the composer
   * sends the RTP, `iface` what the mountpoint's ports listen on.
   */
  async streamingFor(meeting: MeetingRef) {
    // A broadcast holds its meeting row for long: its placement is read again, not taken from it.
    const placed = await this.ensureRoom({ id: meeting.id, name: meeting.name });
    const target = await this.target(placed.server);
    if (!target) throw new MediaUnavailableError(`janus at ${placed.server} is gone`);
    const isManaged = this.managed !== undefined;
    const rtpHost = isManaged ? '127.0.0.1' : new URL(target.url).hostname;
    return {
      target,
      client: await this.client(target),
      secret: placed.secret,
      pin: placed.pin,
      rtpHost,
      iface: isManaged ? '127.0.0.1' : undefined,
    };
  }

  /** The meeting's placed Janus with its room's secret and pin, or undefined when it has none. */
  async placedStreaming(meetingId: number) {
    const [row] = await this.db
      .select({ server: meetings.janusServer, secret: roomCredentials.secret, pin: roomCredentials.pin })
      .from(meetings)
      .innerJoin(roomCredentials, eq(roomCredentials.meetingId, meetings.id))
      .where(eq(meetings.id, meetingId));
    if (!row?.server) return undefined;
    const target = await this.target(row.server).catch(() => undefined);
    return target ? { target, client: await this.client(target), secret: row.secret, pin: row.pin } : undefined;
  }

  /** Destroys the meeting's room (everyone in it is dropped) and forgets the placement. */
  async destroyRoom(meetingId: number): Promise<void> {
    const [placement] = await this.placementsOf([meetingId]);
    await this.destroyPlaced(meetingId, placement);
  }

  /**
   * Destroys a room whose placement the caller read before (its meeting may be deleted by now) and
   * forgets the placement, if the row is still there.
   */
  async destroyPlaced(meetingId: number, placement: RoomPlacement | undefined): Promise<void> {
    try {
      const target = placement && (await this.target(placement.server));
      if (placement && target) {
        this.knownRooms.get(placement.server)?.delete(placement.room);
        await (await this.client(target)).destroyRoom(placement.room, placement.secret);
      }
    } catch (error) {
      if (!(error instanceof JanusError && error.code === VIDEOROOM_NO_SUCH_ROOM)) {
        this.log.warn({ meetingId, err: error }, 'media: destroying room failed');
      }
    }
    await new MeetingRepository(this.db).forgetPlacement(meetingId);
    await this.db.delete(roomCredentials).where(eq(roomCredentials.meetingId, meetingId));
  }

  /** Kicks the publishers with this exact display but another feed id (feeds left behind by a dropped connection). */
  async kickFeed(placed: PlacedRoom, display: string, keepFeedId: number): Promise<void> {
    try {
      const target = await this.target(placed.server);
      if (!target) return;
      const client = await this.client(target);
      const feeds = await client.listParticipants(placed.room);
      for (const feed of feeds.filter((f) => f.display === display && f.id !== keepFeedId)) {
        await client.kick(placed.room, placed.secret, feed.id).catch(() => undefined);
      }
    } catch (error) {
      this.log.warn({ room: placed.room, err: error }, 'media: kick failed');
    }
  }

  /** Kicks every feed a participant publishes (camera and screens) out of the room. */
  async kickParticipant(meetingId: number, participantId: string): Promise<void> {
    try {
      const placed = await this.placed(meetingId);
      if (!placed) return;
      const feeds = await placed.client.listParticipants(placed.room);
      for (const feed of feeds.filter((f) => f.display?.startsWith(`${participantId}:`))) {
        await placed.client.kick(placed.room, placed.secret, feed.id).catch(() => undefined);
      }
    } catch (error) {
      this.log.warn({ meetingId, err: error }, 'media: kick failed');
    }
  }

  /** After a managed Janus restart: every live meeting placed on it gets its room back. */
  async recreateRooms(url: string): Promise<number> {
    const live = await this.db
      .select({ id: meetings.id, name: meetings.name })
      .from(meetings)
      .where(and(eq(meetings.janusServer, url), eq(meetings.state, 'live')));
    for (const meeting of live) await this.ensureRoom(meeting);
    if (live.length) this.log.info({ rooms: live.length }, 'media: rooms re-created after janus restart');
    return live.length;
  }

  async close(): Promise<void> {
    await this.registry.close();
    this.forgetClients();
    await Promise.all([this.managed?.stop(), this.turn.close()]);
  }
}
