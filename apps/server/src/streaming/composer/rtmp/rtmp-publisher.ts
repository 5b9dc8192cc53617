import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { lookup } from 'node:dns/promises';
import { isIP, connect as connectTcp, type Socket } from 'node:net';
import { checkServerIdentity, connect as connectTls, type ConnectionOptions } from 'node:tls';
import { decodeAmf0, encodeAmf0, type Amf0Object, type Amf0Value } from './amf0.js';
import { ChunkReader, encodeChunks, MessageType, type RtmpMessage } from './rtmp-chunks.js';

/** Where to open the connection for an ingest URL; the address policy of the deployment plugs in here. */
export type ConnectTarget = (url: URL) => Promise<{ address: string; port: number }>;

/** A plain DNS lookup of the URL's host, on RTMP's default ports. */
export const lookupConnectTarget: ConnectTarget = async (url) => {
  const { address } = await lookup(url.hostname.replace(/^\[|\]$/g, ''));
  return { address, port: Number(url.port) || (url.protocol === 'rtmps:' ? 443 : 1935) };
};

/** The server answered and said no (a wrong key, a stream already published): trying again rarely helps. */
export class RtmpRefusedError extends Error {
  readonly kind = 'refused';
}
/** Nothing, or nothing sensible, answered: the address, the network or the server is down. */
export class RtmpUnreachableError extends Error {
  readonly kind = 'unreachable';
}
export type RtmpPublishError = RtmpRefusedError | RtmpUnreachableError;

export interface PublisherOptions {
  connectTarget?: ConnectTarget;
  /** Extra TLS settings for rtmps (a test's own certificate authority). */
  tls?: Pick<ConnectionOptions, 'ca'>;
  /** The whole connect, handshake and publish must be done within this. */
  timeoutMs?: number;
}

const HANDSHAKE_SIZE = 1536;
const OUT_CHUNK_SIZE = 4096;
/** Asked of the server: acknowledge every this many bytes, so that a receiver that stopped reading shows. */
export const ACK_WINDOW_BYTES = 128 * 1024;
const CONTROL_CHUNK_STREAM = 2;
const COMMAND_CHUNK_STREAM = 3;
const AUDIO_CHUNK_STREAM = 4;
const DATA_CHUNK_STREAM = 5;
const VIDEO_CHUNK_STREAM = 6;

/**
 * An ingest URL cut the way ffmpeg and the platforms cut it: the application is the first path
 * segment (the first two when there are three or more), the stream name (the key) the rest, query included.
 */
export function splitIngestUrl(ingestUrl: string) {
  // The path is read as written: WHATWG parsing would percent-encode characters of a key.
  const parsed = /^(rtmps?):\/\/([^/?#]+)\/?([^?]*)(\?.*)?$/i.exec(ingestUrl.trim());
  let url: URL | undefined;
  try {
    url = parsed ? new URL(`${parsed[1]!.toLowerCase()}://${parsed[2]}/`) : undefined;
  } catch {
    // Reported below without the address: it holds the key.
  }
  if (!parsed || !url) throw new RtmpRefusedError('not an rtmp(s) address');
  const segments = parsed[3]!.split('/');
  const appSegments = segments.length >= 3 ? 2 : 1;
  const app = segments.slice(0, appSegments).join('/');
  const streamName = segments.slice(appSegments).join('/') + (parsed[4] ?? '');
  const tcUrl = `${url.protocol}//${url.host}/${app}`;
  return { url, app, streamName, tcUrl };
}

/**
 * The client side of RTMP publishing: the simple handshake, `connect`, `createStream`, `publish`,
 * then audio, video and data messages as they come. The key travels only inside the connection:
 * no process sees it, and no error this class makes names it.
 */
export class RtmpPublisher extends EventEmitter<{ closed: [RtmpPublishError | undefined] }> {
  private socket: Socket | undefined;
  private readonly reader = new ChunkReader((message) => this.onMessage(message));
  private readonly waiting = new Map<
    number,
    { resolve: (values: Amf0Value[]) => void; reject: (error: Error) => void }
  >();
  private publishWaiter: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private nextTransaction = 1;
  private streamId = 0;
  private bytesReceived = 0;
  private lastAcknowledged = 0;
  private ackWindow = 0;
  /** The receiver's count of bytes it took, from its acknowledgements; undefined until the first. */
  private acknowledged: { bytes: number; at: number } | undefined;
  /** The largest step between two acknowledgements: a server may acknowledge less often than asked. */
  private largestAckStep = 0;
  private isClosed = false;
  /** RTMP's initial chunk size, until this side announces a larger one. */
  private chunkSize = 128;
  private readonly parts: ReturnType<typeof splitIngestUrl>;

  constructor(
    ingestUrl: string,
    private readonly options: PublisherOptions = {},
  ) {
    super();
    this.parts = splitIngestUrl(ingestUrl);
  }

  /** The server's address and application, never the key: what a log line may say. */
  get where() {
    return this.parts.tcUrl;
  }

  /** Bytes handed to the kernel so far (those still queued in this process are not counted). */
  get sentBytes() {
    return this.socket ? this.socket.bytesWritten - this.socket.writableLength : 0;
  }

  /** Bytes queued in this process because the network or the receiver does not take them. */
  get queuedBytes() {
    return this.socket?.writableLength ?? 0;
  }

  /**
   * Whether the receiver's next acknowledgement is overdue: more bytes sent since its last than it
   * lets pass between two (or than we asked for), and for longer than `ms`. Never from a server that
   * has not acknowledged yet: then only the kernel taking bytes or not tells a stall.
   */
  isAcknowledgementOverdue(ms: number) {
    if (!this.acknowledged) return false;
    const allowance = Math.max(1.5 * ACK_WINDOW_BYTES, 2 * this.largestAckStep);
    const unacknowledged = sequenceDistance(this.acknowledged.bytes, this.sentBytes);
    return unacknowledged > allowance && Date.now() - this.acknowledged.at > ms;
  }

  /** Connects and publishes; rejects with RtmpRefusedError or RtmpUnreachableError. */
  async publish(): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RtmpUnreachableError(`no answer from ${this.where} in ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.handshakeAndPublish(), timeout]);
    } catch (error) {
      this.destroy();
      throw error instanceof RtmpRefusedError || error instanceof RtmpUnreachableError
        ? error
        : new RtmpUnreachableError(this.withoutKey(error instanceof Error ? error.message : String(error)));
    } finally {
      clearTimeout(timer);
    }
  }

  private async handshakeAndPublish() {
    const { url, app, streamName, tcUrl } = this.parts;
    const target = await (this.options.connectTarget ?? lookupConnectTarget)(url);
    const socket = await this.open(url, target);
    await this.handshake(socket);
    const connected = await this.command('connect', {
      app,
      type: 'nonprivate',
      flashVer: 'FMLE/3.0 (compatible; Meetcast)',
      tcUrl,
    });
    const status = connected.find(isObject);
    if (typeof status?.code === 'string' && status.level === 'error') throw this.refused(status);
    this.send(
      { type: MessageType.setChunkSize, streamId: 0, timestamp: 0, payload: uint32(OUT_CHUNK_SIZE) },
      CONTROL_CHUNK_STREAM,
    );
    this.chunkSize = OUT_CHUNK_SIZE;
    this.send(
      { type: MessageType.windowAckSize, streamId: 0, timestamp: 0, payload: uint32(ACK_WINDOW_BYTES) },
      CONTROL_CHUNK_STREAM,
    );
    this.notify('releaseStream', streamName);
    this.notify('FCPublish', streamName);
    const created = await this.command('createStream');
    const streamId = created.find((value) => typeof value === 'number');
    if (typeof streamId !== 'number') throw new RtmpRefusedError(`${this.where} made no stream`);
    this.streamId = streamId;
    const published = new Promise<void>((resolve, reject) => {
      this.publishWaiter = { resolve, reject };
    });
    this.sendCommand(encodeAmf0('publish', this.nextTransaction++, null, streamName, 'live'), streamId);
    await published;
  }

  private open(url: URL, target: { address: string; port: number }) {
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    return new Promise<Socket>((resolve, reject) => {
      const socket =
        url.protocol === 'rtmps:'
          ? connectTls({
              host: target.address,
              port: target.port,
              // The certificate is checked against the URL's host, not the address it resolved to.
              ...(isIP(hostname) ? {} : { servername: hostname }),
              checkServerIdentity: (_address, certificate) => checkServerIdentity(hostname, certificate),
              ...this.options.tls,
            })
          : connectTcp({ host: target.address, port: target.port });
      this.socket = socket;
      socket.setNoDelay(true);
      socket.once(url.protocol === 'rtmps:' ? 'secureConnect' : 'connect', () => resolve(socket));
      socket.on('error', (error) => {
        const failure = new RtmpUnreachableError(`${this.where}: ${this.withoutKey(error.message)}`);
        reject(failure);
        this.fail(failure);
      });
      socket.on('close', () => this.fail(new RtmpUnreachableError(`${this.where} closed the connection`)));
    });
  }

  /** C0+C1 out, S0+S1+S2 in, C2 (S1 echoed) out; what follows S2 is the server's first chunks. */
  private handshake(socket: Socket) {
    const c1 = Buffer.concat([Buffer.alloc(8), randomBytes(HANDSHAKE_SIZE - 8)]);
    socket.write(Buffer.concat([Buffer.from([3]), c1]));
    return new Promise<void>((resolve) => {
      let received = Buffer.alloc(0);
      const onData = (data: Buffer) => {
        received = Buffer.concat([received, data]);
        if (received.length < 1 + 2 * HANDSHAKE_SIZE) return;
        socket.off('data', onData);
        socket.write(received.subarray(1, 1 + HANDSHAKE_SIZE));
        socket.on('data', (more: Buffer) => this.onData(more));
        const rest = received.subarray(1 + 2 * HANDSHAKE_SIZE);
        if (rest.length > 0) this.onData(rest);
        resolve();
      };
      socket.on('data', onData);
    });
  }

  private onData(data: Buffer) {
    this.bytesReceived += data.length;
    if (this.ackWindow > 0 && this.bytesReceived - this.lastAcknowledged >= this.ackWindow) {
      this.lastAcknowledged = this.bytesReceived;
      this.send(
        { type: MessageType.acknowledgement, streamId: 0, timestamp: 0, payload: uint32(this.bytesReceived >>> 0) },
        CONTROL_CHUNK_STREAM,
      );
    }
    this.reader.push(data);
  }

  private onMessage(message: RtmpMessage) {
    const { payload } = message;
    switch (message.type) {
      case MessageType.acknowledgement: {
        const bytes = payload.readUInt32BE(0);
        if (this.acknowledged) {
          this.largestAckStep = Math.max(this.largestAckStep, sequenceDistance(this.acknowledged.bytes, bytes));
        }
        this.acknowledged = { bytes, at: Date.now() };
        return;
      }
      case MessageType.windowAckSize:
        this.ackWindow = payload.readUInt32BE(0);
        return;
      case MessageType.setPeerBandwidth:
        this.send(
          { type: MessageType.windowAckSize, streamId: 0, timestamp: 0, payload: payload.subarray(0, 4) },
          CONTROL_CHUNK_STREAM,
        );
        return;
      case MessageType.userControl:
        // A ping request (6) is answered with a ping response (7) carrying its timestamp.
        if (payload.readUInt16BE(0) === 6) {
          const pong = Buffer.concat([Buffer.from([0, 7]), payload.subarray(2, 6)]);
          this.send({ type: MessageType.userControl, streamId: 0, timestamp: 0, payload: pong }, CONTROL_CHUNK_STREAM);
        }
        return;
      case MessageType.command:
        this.onCommand(decodeAmf0(payload));
        return;
      default:
    }
  }

  private onCommand([name, transaction, , ...rest]: Amf0Value[]) {
    const info = rest.find(isObject);
    if ((name === '_result' || name === '_error') && typeof transaction === 'number') {
      const waiter = this.waiting.get(transaction);
      this.waiting.delete(transaction);
      if (name === '_result') waiter?.resolve(rest);
      else waiter?.reject(this.refused(info));
      return;
    }
    if (name !== 'onStatus' || !info) return;
    const isError =
      info.level === 'error' || (typeof info.code === 'string' && /BadName|Failed|Rejected/.test(info.code));
    if (this.publishWaiter) {
      if (info.code === 'NetStream.Publish.Start') {
        this.publishWaiter.resolve();
        this.publishWaiter = undefined;
      } else if (isError) {
        this.publishWaiter.reject(this.refused(info));
        this.publishWaiter = undefined;
      }
    } else if (isError) {
      this.fail(this.refused(info));
    }
  }

  private refused(info: Amf0Object | undefined) {
    const code = typeof info?.code === 'string' ? info.code : 'refused';
    const description = typeof info?.description === 'string' ? `: ${this.withoutKey(info.description)}` : '';
    return new RtmpRefusedError(`${this.where} refused (${code})${description}`);
  }

  /** The server's own words may quote the stream name back: never let it through. */
  private withoutKey(text: string) {
    const key = this.parts.streamName;
    return key ? text.split(key).join('…') : text;
  }

  private command(name: string, ...args: Amf0Value[]) {
    const transaction = this.nextTransaction++;
    return new Promise<Amf0Value[]>((resolve, reject) => {
      this.waiting.set(transaction, { resolve, reject });
      this.sendCommand(encodeAmf0(name, transaction, args[0] ?? null, ...args.slice(1)), 0);
    });
  }

  /** A command whose answer nothing waits for (releaseStream, FCPublish, FCUnpublish, deleteStream). */
  private notify(name: string, ...args: Amf0Value[]) {
    this.sendCommand(encodeAmf0(name, this.nextTransaction++, null, ...args), 0);
  }

  private sendCommand(payload: Buffer, streamId: number) {
    this.send({ type: MessageType.command, streamId, timestamp: 0, payload }, COMMAND_CHUNK_STREAM);
  }

  private send(message: RtmpMessage, chunkStream: number) {
    const socket = this.socket;
    if (!socket || socket.destroyed || !socket.writable) return;
    socket.write(encodeChunks(message, chunkStream, this.chunkSize));
  }

  /** One FLV tag's body as a message of the published stream: 8 audio, 9 video, 18 data (onMetaData). */
  sendMedia(type: 8 | 9 | 18, timestamp: number, body: Buffer) {
    const payload = type === 18 ? Buffer.concat([encodeAmf0('@setDataFrame'), body]) : body;
    const chunkStream = type === 8 ? AUDIO_CHUNK_STREAM : type === 9 ? VIDEO_CHUNK_STREAM : DATA_CHUNK_STREAM;
    this.send({ type, streamId: this.streamId, timestamp, payload }, chunkStream);
  }

  private fail(error: RtmpPublishError) {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    this.publishWaiter?.reject(error);
    this.publishWaiter = undefined;
    this.socket?.destroy();
    this.emit('closed', error);
  }

  /** Ends the publication politely (FCUnpublish, deleteStream), then the connection. */
  async close() {
    const socket = this.socket;
    if (this.isClosed || !socket) return;
    this.isClosed = true;
    if (this.streamId > 0) {
      this.notify('FCUnpublish', this.parts.streamName);
      this.notify('deleteStream', this.streamId);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        socket.destroy();
        resolve();
      }, 2000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.end();
    });
    this.emit('closed', undefined);
  }

  destroy() {
    this.isClosed = true;
    this.socket?.destroy();
  }
}

/** From one byte count to a later one, as acknowledgements count them: modulo 2^32 (4 GB, hours of stream). */
function sequenceDistance(from: number, to: number) {
  return (((to - from) % 2 ** 32) + 2 ** 32) % 2 ** 32;
}

function uint32(value: number) {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

function isObject(value: Amf0Value): value is Amf0Object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
