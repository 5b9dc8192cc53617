import {
  VIEWER_CHAT_EVENT,
  VIEWER_CHAT_PROTOCOL_VERSION,
  ViewerChatEventSchema,
  type ViewerChatEvent,
  type ViewerChatMessage,
  type ViewerChatState,
} from '@meetcast/contracts';
import { io as connect, type Socket } from 'socket.io-client';
import { insertMeeting, type MeetingOptions } from './room-helpers.js';
import type { Fields, SignedIn, TestServer } from './test-server.js';

export type ChatAnswer = { data: ViewerChatState | null };
export type PostAnswer = { data: ViewerChatMessage };

/** A live meeting of `host` with a running broadcast (started through the real call; recording only). */
export async function liveBroadcast(server: TestServer, host: SignedIn, options: Partial<MeetingOptions> = {}) {
  const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live', ...options });
  const started = await server.post('start-broadcast.php', { token: host.token, meetId: meeting.slug, record: 1 });
  if (started.httpStatus !== 200) throw new Error(`start-broadcast failed: ${started.body.message}`);
  return meeting;
}

export async function guestIdentity(server: TestServer): Promise<string> {
  const answer = await server.post<{ viewer_token: string }>('get-viewer-chat-identity.php');
  if (!answer.body.data) throw new Error(`identity failed: ${answer.body.message}`);
  return answer.body.data.viewer_token;
}

export async function chat(server: TestServer, meetId: string, fields: Fields = {}) {
  return server.post<ChatAnswer>('get-viewer-chat.php', { meetId, ...fields });
}

/** A listen-only connection to /viewer-chat that records every event it receives. */
export class ViewerChatClient {
  readonly events: ViewerChatEvent[] = [];
  readonly socket: Socket;

  constructor(baseUrl: string, auth: Record<string, unknown>) {
    this.socket = connect(`${baseUrl}/viewer-chat`, {
      auth: { protocol: VIEWER_CHAT_PROTOCOL_VERSION, ...auth },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    this.socket.on(VIEWER_CHAT_EVENT, (payload: unknown) => this.events.push(ViewerChatEventSchema.parse(payload)));
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

  async next<T extends ViewerChatEvent['type']>(
    type: T,
    where: (event: Extract<ViewerChatEvent, { type: T }>) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<Extract<ViewerChatEvent, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = this.events.find(
        (event): event is Extract<ViewerChatEvent, { type: T }> =>
          event.type === type && where(event as Extract<ViewerChatEvent, { type: T }>),
      );
      if (seen) return seen;
      if (Date.now() > deadline) throw new Error(`no ${type} event within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close() {
    this.socket.close();
  }
}
