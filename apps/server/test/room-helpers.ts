import { randomBytes } from 'node:crypto';
import {
  ROOM_EVENT,
  ROOM_MESSAGE,
  ROOM_PROTOCOL_VERSION,
  RoomAckSchema,
  RoomServerEventSchema,
  type JoinRoomOutput,
  type RoomAck,
  type RoomClientMessage,
  type RoomServerEvent,
} from '@meetcast/contracts';
import { meetings } from '@meetcast/db';
import { hashPassword } from '../src/platform/hashing.js';
import { RecordingSocket } from './recording-socket.js';
import type { TestServer } from './test-server.js';

export interface MeetingOptions {
  hostId: number;
  name?: string;
  isPrivate?: 1 | 2;
  password?: string;
  isSchedule?: 0 | 1;
  repeat?: number;
  state?: 'scheduled' | 'live' | 'ended';
}

/** Until the meetings API lands, rooms' tests put meetings straight into the database. */
export async function insertMeeting(server: TestServer, options: MeetingOptions) {
  const slug = `room-${randomBytes(5).toString('hex')}`;
  const now = Date.now();
  const [row] = await server.built.context.db
    .insert(meetings)
    .values({
      hostId: options.hostId,
      name: options.name ?? `Meeting ${slug}`,
      slug,
      isSchedule: options.isSchedule ?? 1,
      isPrivate: options.isPrivate ?? 2,
      isPassword: options.password ? 1 : 2,
      passwordPlain: options.password ?? null,
      passwordHash: options.password ? await hashPassword(options.password) : null,
      startTime: new Date(now),
      endTime: new Date(now + 3600_000),
      repeat: options.repeat ?? 0,
      state: options.state ?? 'scheduled',
    })
    .returning();
  if (!row) throw new Error('meeting not inserted');
  return row;
}

export type JoinAnswer = JoinRoomOutput['data'];

/** What a browser keeps between calls: its cookies, and the address it calls from (through a trusted proxy). */
export interface BrowserSide {
  cookie?: string | undefined;
  address?: string;
}

/**
 * join-room.php the way a browser calls it: with the cookies it holds, from its address (as
 * X-Forwarded-For, for a server that trusts 127.0.0.1 as its proxy); answers the cookie it was given.
 */
export async function joinAs(
  server: TestServer,
  fields: Record<string, string | number | undefined>,
  side: BrowserSide,
) {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, String(value));
  const headers: Record<string, string> = {};
  if (side.cookie) headers.cookie = side.cookie;
  if (side.address) headers['x-forwarded-for'] = side.address;
  const response = await fetch(`${server.baseUrl}/api/join-room.php`, { method: 'POST', body: form, headers });
  const given = response.headers.getSetCookie()[0]?.split(';')[0];
  const body = (await response.json()) as { status: string; message: string; data?: JoinAnswer };
  return {
    httpStatus: response.status,
    body,
    cookie: given ?? side.cookie,
    setCookie: response.headers.getSetCookie(),
  };
}

/** A participant's Socket.IO connection to /room that records every event it receives. */
export class RoomClient extends RecordingSocket<RoomServerEvent> {
  constructor(baseUrl: string, grant: string) {
    super(`${baseUrl}/room`, { grant, protocol: ROOM_PROTOCOL_VERSION }, ROOM_EVENT, (payload) =>
      RoomServerEventSchema.parse(payload),
    );
  }

  send(message: RoomClientMessage | Record<string, unknown>): Promise<RoomAck> {
    return new Promise((resolve) =>
      this.socket.emit(ROOM_MESSAGE, message, (answer: unknown) => resolve(RoomAckSchema.parse(answer))),
    );
  }
}

/**
 * The room clients a test file opens, all closed with its server at the end:
 * `const { client, join, enter } = new RoomClients(() => server)`, `afterAll(() => rooms.closeWith(server))`.
 */
export class RoomClients {
  private readonly opened: RoomClient[] = [];

  constructor(private readonly server: () => TestServer) {}

  /** A room connection with this grant. */
  readonly client = (grant: string) => {
    const made = new RoomClient(this.server().baseUrl, grant);
    this.opened.push(made);
    return made;
  };

  readonly join = (fields: Record<string, string | number | undefined>) =>
    this.server().post<JoinAnswer>('join-room.php', fields);

  /** Joins, connects, and waits for the room's state: someone now in the meeting (or its lobby). */
  readonly enter = async (fields: Record<string, string>) => {
    const answer = (await this.join(fields)).body.data!;
    const client = this.client(answer.grant);
    return { client, id: answer.participant_id, state: await client.next('room.state') };
  };

  async closeWith(server: TestServer) {
    for (const client of this.opened) client.close();
    await server.close();
  }
}
