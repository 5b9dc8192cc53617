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
import { hashPassword } from '../src/accounts/secrets.js';
import { io as connect, type Socket } from 'socket.io-client';
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

/** A participant's Socket.IO connection to /room that records every event it receives. */
export class RoomClient {
  readonly events: RoomServerEvent[] = [];
  readonly socket: Socket;
  private waiters: { test: (e: RoomServerEvent) => boolean; resolve: (e: RoomServerEvent) => void }[] = [];

  constructor(baseUrl: string, grant: string) {
    this.socket = connect(`${baseUrl}/room`, {
      auth: { grant, protocol: ROOM_PROTOCOL_VERSION },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    this.socket.on(ROOM_EVENT, (payload: unknown) => {
      const event = RoomServerEventSchema.parse(payload);
      this.events.push(event);
      for (const waiter of [...this.waiters]) {
        if (waiter.test(event)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    });
  }

  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.connected) return resolve();
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', reject);
    });
  }

  refused(): Promise<string> {
    return new Promise((resolve) => this.socket.once('connect_error', (error) => resolve(error.message)));
  }

  next<T extends RoomServerEvent['type']>(
    type: T,
    where: (event: Extract<RoomServerEvent, { type: T }>) => boolean = () => true,
    timeoutMs = 8000,
  ): Promise<Extract<RoomServerEvent, { type: T }>> {
    type E = Extract<RoomServerEvent, { type: T }>;
    const seen = this.events.find((e) => e.type === type && where(e as E));
    if (seen) return Promise.resolve(seen as E);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} event within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        test: (e) => e.type === type && where(e as E),
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e as E);
        },
      });
    });
  }

  send(message: RoomClientMessage | Record<string, unknown>): Promise<RoomAck> {
    return new Promise((resolve) =>
      this.socket.emit(ROOM_MESSAGE, message, (answer: unknown) => resolve(RoomAckSchema.parse(answer))),
    );
  }

  close() {
    this.socket.close();
  }
}
