import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  JANUS_PLUGINS,
  JanusErrorSchema,
  JanusEventSchema,
  janusRequest,
  JanusSuccessSchema,
  StreamingCreatedSchema,
  StreamingDestroyedSchema,
  StreamingInfoSchema,
  JanusPluginErrorSchema,
  VideoRoomCreatedSchema,
  VideoRoomDestroyedSchema,
  VideoRoomExistsSchema,
  VideoRoomForwardSchema,
  VideoRoomForwardStoppedSchema,
  VideoRoomParticipantsSchema,
  VideoRoomSuccessSchema,
  type JanusRequest,
  type VideoRoomParticipant,
} from '@meetcast/contracts';
import WebSocket from 'ws';
import { z } from 'zod';
import { readJanus, withApiSecret } from './janus/protocol.js';

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

/** Janus' answer to one of our requests (its `ack`s are skipped: the answer follows). */
const TransactionReplySchema = z.discriminatedUnion('janus', [JanusSuccessSchema, JanusErrorSchema, JanusEventSchema]);
type TransactionReply = z.infer<typeof TransactionReplySchema>;

export type JanusParticipant = VideoRoomParticipant;

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
    const sessionId = createdId(await this.request(janusRequest.create()));
    this.sessionId = sessionId;
    this.handleId = createdId(await this.request(janusRequest.attach(sessionId, JANUS_PLUGINS.videoroom)));
    this.streamingHandle = undefined;
    this.keepAlive = setInterval(() => {
      this.request(janusRequest.keepalive(sessionId)).catch(() => undefined);
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
    const reply = readJanus(raw, TransactionReplySchema);
    if (!reply?.transaction) return;
    const pending = this.pending.get(reply.transaction);
    if (!pending) return;
    this.pending.delete(reply.transaction);
    clearTimeout(pending.timer);
    if (reply.janus === 'error') {
      pending.reject(new JanusError(reply.error.code, reply.error.reason));
    } else {
      pending.resolve(reply);
    }
  }

  private request(message: Omit<JanusRequest, 'transaction'>): Promise<TransactionReply> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return Promise.reject(new JanusError(0, 'not connected'));
    const transaction = randomBytes(9).toString('base64url');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new JanusError(0, `request ${message.janus} timed out`));
      }, this.options.requestTimeoutMs ?? 5000);
      this.pending.set(transaction, { resolve, reject, timer });
      if (message.janus !== 'keepalive') this.emit('request');
      socket.send(JSON.stringify(withApiSecret({ ...message, transaction }, this.options.apiSecret)));
    });
  }

  /** A synchronous VideoRoom request; the plugin's answer is validated by `schema`. */
  private videoroom<T extends z.ZodType>(body: Record<string, unknown>, schema: T): Promise<z.infer<T>> {
    return this.pluginRequest(this.handleId, body, schema);
  }

  private async streaming<T extends z.ZodType>(body: Record<string, unknown>, schema: T): Promise<z.infer<T>> {
    this.streamingHandle ??= this.request(janusRequest.attach(this.session(), JANUS_PLUGINS.streaming)).then(
      (reply) => {
        if (reply.janus !== 'success' || reply.data === undefined)
          throw new JanusError(0, 'streaming plugin not attached');
        return reply.data.id;
      },
    );
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
    if (handleId === undefined) throw new JanusError(0, 'not connected');
    const reply = await this.request(janusRequest.message(this.session(), handleId, body));
    const data = (reply.janus !== 'error' && reply.plugindata?.data) || {};
    const failure = JanusPluginErrorSchema.safeParse(data);
    if (failure.success) throw new JanusError(failure.data.error_code, failure.data.error);
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new JanusError(0, `unexpected answer to ${String(body.request)}`);
    return parsed.data;
  }

  /** The session `connect` created; a request before it (or after a failed connect) is refused. */
  private session() {
    if (this.sessionId === undefined) throw new JanusError(0, 'not connected');
    return this.sessionId;
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
      VideoRoomCreatedSchema,
    );
  }

  async exists(room: number) {
    return (await this.videoroom({ request: 'exists', room }, VideoRoomExistsSchema)).exists;
  }

  async destroyRoom(room: number, secret: string) {
    return this.videoroom({ request: 'destroy', room, secret, permanent: false }, VideoRoomDestroyedSchema);
  }

  async listParticipants(room: number) {
    return (await this.videoroom({ request: 'listparticipants', room }, VideoRoomParticipantsSchema)).participants;
  }

  async kick(room: number, secret: string, feedId: number) {
    return this.videoroom({ request: 'kick', room, secret, id: feedId }, VideoRoomSuccessSchema);
  }

  /** Mutes (or lets through again) one kind of a publisher's media at the SFU. */
  async moderate(room: number, secret: string, feedId: number, mid: string, mute: boolean) {
    return this.videoroom({ request: 'moderate', room, secret, id: feedId, mid, mute }, VideoRoomSuccessSchema);
  }

  async rtpForward(room: number, secret: string, feedId: number, host: string, streams: Record<string, unknown>[]) {
    return this.videoroom(
      { request: 'rtp_forward', ...this.admin(), room, secret, publisher_id: feedId, host, streams },
      VideoRoomForwardSchema,
    );
  }

  async stopRtpForward(room: number, secret: string, feedId: number, streamId: number) {
    return this.videoroom(
      { request: 'stop_rtp_forward', ...this.admin(), room, secret, publisher_id: feedId, stream_id: streamId },
      VideoRoomForwardStoppedSchema,
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
      StreamingCreatedSchema,
    );
    const port = (type: string) => created.stream.ports.find((entry) => entry.type === type)?.port;
    const video = port('video');
    const audio = port('audio');
    if (!video || !audio) throw new JanusError(0, 'mountpoint created without ports');
    return { video, audio };
  }

  async destroyMountpoint(id: number, secret: string) {
    return this.streaming({ request: 'destroy', id, secret, permanent: false }, StreamingDestroyedSchema);
  }

  /** How many are watching the mountpoint now. */
  async mountpointViewers(id: number, secret: string) {
    return (await this.streaming({ request: 'info', id, secret }, StreamingInfoSchema)).info.viewers ?? 0;
  }
}

/** The session's or handle's id in Janus' answer to `create` or `attach`. */
function createdId(reply: TransactionReply) {
  if (reply.janus !== 'success' || reply.data === undefined) throw new JanusError(0, 'nothing created');
  return reply.data.id;
}
