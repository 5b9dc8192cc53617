import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { z } from 'zod';

/** A failure answered by Janus itself or by the VideoRoom plugin (with its numeric code). */
export class JanusError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`janus error ${code}: ${message}`);
  }
}

// VideoRoom error codes we act on (janus_videoroom.c).
export const VIDEOROOM_NO_SUCH_ROOM = 426;
export const VIDEOROOM_ROOM_EXISTS = 427;
export const VIDEOROOM_NO_SUCH_FEED = 428;

const TransactionReplySchema = z.object({
  janus: z.string(),
  transaction: z.string().optional(),
  data: z.object({ id: z.number() }).optional(),
  error: z.object({ code: z.number(), reason: z.string() }).optional(),
  plugindata: z.object({ plugin: z.string(), data: z.record(z.string(), z.unknown()) }).optional(),
});
type TransactionReply = z.infer<typeof TransactionReplySchema>;

const PluginErrorSchema = z.object({ error_code: z.number(), error: z.string() });

const CreatedSchema = z.object({ videoroom: z.literal('created'), room: z.number() });
const DestroyedSchema = z.object({ videoroom: z.literal('destroyed') });
const ExistsSchema = z.object({ videoroom: z.literal('success'), exists: z.boolean() });
const SuccessSchema = z.object({ videoroom: z.literal('success') });
const ParticipantsSchema = z.object({
  videoroom: z.literal('participants'),
  participants: z.array(z.object({ id: z.number(), display: z.string().optional(), publisher: z.boolean() })),
});
const ForwardSchema = z.object({
  videoroom: z.literal('rtp_forward'),
  forwarders: z.array(z.object({ stream_id: z.number(), mid: z.string().optional(), port: z.number() })).optional(),
});
const MountpointCreatedSchema = z.object({
  streaming: z.literal('created'),
  stream: z.object({
    id: z.number(),
    host: z.string().optional(),
    ports: z.array(z.object({ type: z.string(), mid: z.string(), port: z.number() })),
  }),
});
const MountpointInfoSchema = z.object({
  streaming: z.literal('info'),
  info: z.object({ id: z.number(), viewers: z.number().optional() }),
});
export type JanusParticipant = z.infer<typeof ParticipantsSchema>['participants'][number];

export interface RoomSettings {
  room: number;
  secret: string;
  pin: string;
  description: string;
  publishers: number;
}

// Streaming plugin error code we act on (janus_streaming.c).
export const STREAMING_NO_SUCH_MOUNTPOINT = 455;

/** A Streaming mountpoint fed over RTP: one H.264 video and one Opus audio stream. */
export interface MountpointSettings {
  id: number;
  description: string;
  secret: string;
  pin: string;
  /** Address its RTP ports listen on (loopback when Janus runs beside the composer). */
  iface: string | undefined;
}

export interface JanusClientOptions {
  apiSecret?: string;
  adminKey?: string;
  requestTimeoutMs?: number;
}

interface Pending {
  resolve: (reply: TransactionReply) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The server's own connection to one Janus instance over its WebSocket API: one session, one
 * VideoRoom handle, keep-alives, and typed administrative requests (create, destroy, kick,
 * moderate, rtp_forward). Browsers never use this connection.
 */
export class JanusClient extends EventEmitter<{ close: []; request: [] }> {
  private socket: WebSocket | undefined;
  private sessionId: number | undefined;
  private handleId: number | undefined;
  /** A Streaming plugin handle, attached on first use (only broadcasts need one). */
  private streamingHandle: Promise<number> | undefined;
  private readonly pending = new Map<string, Pending>();
  private keepAlive: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly url: string,
    private readonly options: JanusClientOptions = {},
  ) {
    super();
  }

  get isOpen() {
    return !this.closed && this.socket?.readyState === WebSocket.OPEN && this.handleId !== undefined;
  }

  async connect(timeoutMs = 3000): Promise<void> {
    const socket = new WebSocket(this.url, 'janus-protocol', { handshakeTimeout: timeoutMs });
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.on('message', (raw) => this.onMessage(String(raw)));
    socket.on('error', () => undefined);
    socket.on('close', () => this.onClose());
    const session = await this.request({ janus: 'create' });
    this.sessionId = session.data?.id;
    const handle = await this.request({
      janus: 'attach',
      session_id: this.sessionId,
      plugin: 'janus.plugin.videoroom',
    });
    this.handleId = handle.data?.id;
    this.streamingHandle = undefined;
    this.keepAlive = setInterval(() => {
      this.request({ janus: 'keepalive', session_id: this.sessionId }).catch(() => undefined);
    }, 25_000);
    this.keepAlive.unref();
  }

  close() {
    this.closed = true;
    this.socket?.close();
    this.onClose();
  }

  private onClose() {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    for (const [transaction, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new JanusError(0, 'connection closed'));
      this.pending.delete(transaction);
    }
    if (this.handleId !== undefined || this.closed) {
      this.handleId = undefined;
      this.closed = true;
      this.emit('close');
    }
  }

  private onMessage(raw: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    const reply = TransactionReplySchema.safeParse(parsed);
    if (!reply.success || !reply.data.transaction || reply.data.janus === 'ack') return;
    const pending = this.pending.get(reply.data.transaction);
    if (!pending) return;
    this.pending.delete(reply.data.transaction);
    clearTimeout(pending.timer);
    if (reply.data.janus === 'error') {
      pending.reject(new JanusError(reply.data.error?.code ?? 0, reply.data.error?.reason ?? 'unknown'));
    } else {
      pending.resolve(reply.data);
    }
  }

  private request(message: Record<string, unknown>): Promise<TransactionReply> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return Promise.reject(new JanusError(0, 'not connected'));
    const transaction = randomBytes(9).toString('base64url');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new JanusError(0, `request ${String(message.janus)} timed out`));
      }, this.options.requestTimeoutMs ?? 5000);
      this.pending.set(transaction, { resolve, reject, timer });
      const withSecret = this.options.apiSecret ? { ...message, apisecret: this.options.apiSecret } : message;
      if (message.janus !== 'keepalive') this.emit('request');
      socket.send(JSON.stringify({ ...withSecret, transaction }));
    });
  }

  /** A synchronous VideoRoom request; the plugin's answer is validated by `schema`. */
  private videoroom<T extends z.ZodType>(body: Record<string, unknown>, schema: T): Promise<z.infer<T>> {
    return this.pluginRequest(this.handleId, body, schema);
  }

  private async streaming<T extends z.ZodType>(body: Record<string, unknown>, schema: T): Promise<z.infer<T>> {
    this.streamingHandle ??= this.request({
      janus: 'attach',
      session_id: this.sessionId,
      plugin: 'janus.plugin.streaming',
    }).then((reply) => {
      if (reply.data?.id === undefined) throw new JanusError(0, 'streaming plugin not attached');
      return reply.data.id;
    });
    const handle = await this.streamingHandle.catch((error: unknown) => {
      this.streamingHandle = undefined;
      throw error;
    });
    return this.pluginRequest(handle, body, schema);
  }

  private async pluginRequest<T extends z.ZodType>(
    handleId: number | undefined,
    body: Record<string, unknown>,
    schema: T,
  ): Promise<z.infer<T>> {
    const reply = await this.request({
      janus: 'message',
      session_id: this.sessionId,
      handle_id: handleId,
      body,
    });
    const data = reply.plugindata?.data ?? {};
    const failure = PluginErrorSchema.safeParse(data);
    if (failure.success) throw new JanusError(failure.data.error_code, failure.data.error);
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new JanusError(0, `unexpected answer to ${String(body.request)}`);
    return parsed.data;
  }

  private admin() {
    return this.options.adminKey ? { admin_key: this.options.adminKey } : {};
  }

  async createRoom(settings: RoomSettings) {
    return this.videoroom(
      {
        request: 'create',
        ...this.admin(),
        room: settings.room,
        permanent: false,
        is_private: true,
        description: settings.description,
        secret: settings.secret,
        pin: settings.pin,
        publishers: settings.publishers,
        bitrate: 1_024_000,
        bitrate_cap: true,
        fir_freq: 2,
        audiocodec: 'opus',
        videocodec: 'vp8,h264',
        audiolevel_event: true,
        audio_active_packets: 50,
        audio_level_average: 40,
        notify_joining: false,
      },
      CreatedSchema,
    );
  }

  async exists(room: number) {
    return (await this.videoroom({ request: 'exists', room }, ExistsSchema)).exists;
  }

  async destroyRoom(room: number, secret: string) {
    return this.videoroom({ request: 'destroy', room, secret, permanent: false }, DestroyedSchema);
  }

  async listParticipants(room: number) {
    return (await this.videoroom({ request: 'listparticipants', room }, ParticipantsSchema)).participants;
  }

  async kick(room: number, secret: string, feedId: number) {
    return this.videoroom({ request: 'kick', room, secret, id: feedId }, SuccessSchema);
  }

  /** Mutes (or lets through again) one kind of a publisher's media at the SFU. */
  async moderate(room: number, secret: string, feedId: number, mid: string, mute: boolean) {
    return this.videoroom({ request: 'moderate', room, secret, id: feedId, mid, mute }, SuccessSchema);
  }

  async rtpForward(room: number, secret: string, feedId: number, host: string, streams: Record<string, unknown>[]) {
    return this.videoroom(
      { request: 'rtp_forward', ...this.admin(), room, secret, publisher_id: feedId, host, streams },
      ForwardSchema,
    );
  }

  async stopRtpForward(room: number, secret: string, feedId: number, streamId: number) {
    return this.videoroom(
      { request: 'stop_rtp_forward', ...this.admin(), room, secret, publisher_id: feedId, stream_id: streamId },
      z.object({ videoroom: z.literal('stop_rtp_forward') }),
    );
  }

  /** Creates an RTP mountpoint; Janus picks its ports (answered, to send the RTP to). */
  async createMountpoint(settings: MountpointSettings) {
    const iface = settings.iface ? { iface: settings.iface } : {};
    const created = await this.streaming(
      {
        request: 'create',
        ...this.admin(),
        type: 'rtp',
        id: settings.id,
        description: settings.description,
        is_private: true,
        permanent: false,
        secret: settings.secret,
        pin: settings.pin,
        // Lets a watch ask the viewer's browser for no playout delay (the viewer filter's `watch`).
        playoutdelay_ext: true,
        media: [
          {
            type: 'video',
            mid: 'v',
            port: 0,
            pt: 96,
            codec: 'h264',
            fmtp: 'profile-level-id=42e01f;packetization-mode=1',
            // A new viewer gets the last keyframe at once instead of waiting up to a GOP for the next.
            bufferkf: true,
            ...iface,
          },
          { type: 'audio', mid: 'a', port: 0, pt: 111, codec: 'opus', ...iface },
        ],
      },
      MountpointCreatedSchema,
    );
    const port = (type: string) => created.stream.ports.find((entry) => entry.type === type)?.port;
    const video = port('video');
    const audio = port('audio');
    if (!video || !audio) throw new JanusError(0, 'mountpoint created without ports');
    return { video, audio };
  }

  async destroyMountpoint(id: number, secret: string) {
    return this.streaming(
      { request: 'destroy', id, secret, permanent: false },
      z.object({ streaming: z.literal('destroyed') }),
    );
  }

  /** How many are watching the mountpoint now. */
  async mountpointViewers(id: number, secret: string) {
    return (await this.streaming({ request: 'info', id, secret }, MountpointInfoSchema)).info.viewers ?? 0;
  }
}
