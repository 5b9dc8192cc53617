import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { randomId, type FakeReply, type FakeRequest } from './fake-oauth.js';
import { FAKE_AVATAR_PNG } from './fake-youtube-chat.js';

export interface FakeChatter {
  id: string;
  login: string;
  name: string;
}

interface Session {
  id: string;
  socket: WebSocket;
  /** Broadcaster ids this session is subscribed to for channel.chat.message. */
  channels: Set<string>;
}

/** Where the fake Helix serves chatters' profile pictures (one picture for all). */
export const CHATTER_AVATAR_PATH = '/avatar/';
export const chatterAvatar = (): FakeReply => ({ status: 200, body: FAKE_AVATAR_PNG, type: 'image/png' });

const now = () => new Date().toISOString();
const metadata = (type: string, extra: Record<string, string> = {}) => ({
  message_id: randomId(12),
  message_type: type,
  message_timestamp: now(),
  ...extra,
});

/**
 * Twitch EventSub over WebSocket, for chat: a socket gets `session_welcome`, keepalives, and a
 * `notification` for every `channel.chat.message` of the channels its session subscribed to with
 * POST /helix/eventsub/subscriptions (scope user:read:chat). Shapes as Twitch documents them.
 */
export class FakeTwitchEventSub {
  keepaliveSeconds = 10;
  readonly chatters = new Map<string, FakeChatter>();
  /** Subscription requests answered 202. */
  subscriptions = 0;
  private readonly sessions = new Map<string, Session>();
  private readonly server: WebSocketServer;
  private readonly timer: NodeJS.Timeout;

  private constructor(server: WebSocketServer) {
    this.server = server;
    server.on('connection', (socket) => {
      const session: Session = { id: randomId(16), socket, channels: new Set() };
      this.sessions.set(session.id, session);
      socket.on('close', () => this.sessions.delete(session.id));
      socket.send(
        JSON.stringify({
          metadata: metadata('session_welcome'),
          payload: {
            session: {
              id: session.id,
              status: 'connected',
              connected_at: now(),
              keepalive_timeout_seconds: this.keepaliveSeconds,
              reconnect_url: null,
            },
          },
        }),
      );
    });
    this.timer = setInterval(() => {
      for (const session of this.sessions.values()) {
        session.socket.send(JSON.stringify({ metadata: metadata('session_keepalive'), payload: {} }));
      }
    }, 2000);
    this.timer.unref();
  }

  static async start(): Promise<FakeTwitchEventSub> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new FakeTwitchEventSub(server);
  }

  get url() {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/ws`;
  }

  /** Sockets open now (a reader that stopped has closed its socket). */
  get openSessions() {
    return this.sessions.size;
  }

  /**
   * The Helix calls chat makes, for the token's user: POST /eventsub/subscriptions, and GET /users?id=
   * to look a chatter up (their picture at `${helixHost}/avatar/<id>.png`). Undefined for any other.
   */
  helix(
    request: FakeRequest,
    call: string,
    token: { userId: string; scopes: string[] },
    helixHost: string,
  ): FakeReply | undefined {
    if (call === 'POST /eventsub/subscriptions') return this.subscribe(request.json, token.userId, token.scopes);
    const chatterId = request.url.searchParams.get('id');
    if (call !== 'GET /users' || !chatterId) return undefined;
    const chatter = this.chatters.get(chatterId);
    const profile = chatter && {
      id: chatter.id,
      login: chatter.login,
      display_name: chatter.name,
      profile_image_url: `${helixHost}${CHATTER_AVATAR_PATH}${chatter.id}.png`,
    };
    return { status: 200, json: { data: profile ? [profile] : [] } };
  }

  /** POST /helix/eventsub/subscriptions for the token's user. */
  private subscribe(json: unknown, tokenUserId: string, scopes: string[]): FakeReply {
    const body = (json ?? {}) as {
      type?: string;
      version?: string;
      condition?: { broadcaster_user_id?: string; user_id?: string };
      transport?: { method?: string; session_id?: string };
    };
    const error = (status: number, message: string): FakeReply => ({
      status,
      json: { error: status === 403 ? 'Forbidden' : 'Bad Request', status, message },
    });
    if (body.type !== 'channel.chat.message' || body.version !== '1')
      return error(400, 'unsupported subscription type');
    if (!scopes.includes('user:read:chat')) return error(403, 'subscription missing proper authorization');
    if (body.condition?.user_id !== tokenUserId) return error(403, 'user_id must match the token');
    const session = this.sessions.get(body.transport?.session_id ?? '');
    if (body.transport?.method !== 'websocket' || !session) return error(400, 'session does not exist');
    const broadcaster = body.condition.broadcaster_user_id ?? '';
    session.channels.add(broadcaster);
    this.subscriptions += 1;
    return {
      status: 202,
      json: {
        data: [
          {
            id: randomId(12),
            status: 'enabled',
            type: body.type,
            version: '1',
            condition: body.condition,
            created_at: now(),
            transport: { method: 'websocket', session_id: session.id, connected_at: now() },
            cost: 0,
          },
        ],
        total: 1,
        total_cost: 0,
        max_total_cost: 10,
      },
    };
  }

  /** Every socket drops, as in a Twitch outage: readers must connect and subscribe again. */
  dropAll() {
    for (const session of this.sessions.values()) session.socket.terminate();
  }

  /** A viewer writes in a channel's chat: every subscribed session is notified now. */
  say(broadcasterId: string, chatter: FakeChatter, text: string): string {
    this.chatters.set(chatter.id, chatter);
    const messageId = randomId(16);
    const event = {
      broadcaster_user_id: broadcasterId,
      broadcaster_user_login: 'channel',
      broadcaster_user_name: 'Channel',
      chatter_user_id: chatter.id,
      chatter_user_login: chatter.login,
      chatter_user_name: chatter.name,
      message_id: messageId,
      message: { text, fragments: [{ type: 'text', text, cheermote: null, emote: null, mention: null }] },
      color: '#9147FF',
      badges: [],
      message_type: 'text',
      cheer: null,
      reply: null,
      channel_points_custom_reward_id: null,
    };
    for (const session of this.sessions.values()) {
      if (!session.channels.has(broadcasterId)) continue;
      session.socket.send(
        JSON.stringify({
          metadata: metadata('notification', { subscription_type: 'channel.chat.message', subscription_version: '1' }),
          payload: { subscription: { type: 'channel.chat.message', version: '1' }, event },
        }),
      );
    }
    return messageId;
  }

  async close() {
    clearInterval(this.timer);
    for (const session of this.sessions.values()) session.socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
