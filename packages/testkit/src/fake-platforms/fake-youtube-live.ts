import { randomId, type FakeReply } from './fake-oauth.js';

/**
 * The live-streaming part of the fake YouTube Data API v3: liveBroadcasts (insert, list, bind,
 * transition) and liveStreams (insert, list), with the lifecycle and error reasons Google documents
 * (redundantTransition, invalidTransition, errorStreamInactive, liveStreamingNotEnabled).
 */

export interface FakeBroadcast {
  id: string;
  channelId: string;
  title: string;
  description: string;
  privacyStatus: string;
  scheduledStartTime: string;
  enableMonitorStream: boolean;
  lifeCycleStatus: 'created' | 'ready' | 'testing' | 'live' | 'complete';
  boundStreamId: string | undefined;
}

export interface FakeStream {
  id: string;
  channelId: string;
  title: string;
  streamName: string;
}

export function youtubeError(status: number, reason: string, message: string, domain = 'youtube.api'): FakeReply {
  return { status, json: { error: { code: status, message, errors: [{ message, domain, reason }] } } };
}

export interface LiveSettings {
  ingestBase: string;
  isStreamActive(streamName: string): boolean | Promise<boolean>;
  isLiveStreamingEnabled(): boolean;
}

export class FakeYouTubeLive {
  readonly broadcasts = new Map<string, FakeBroadcast>();
  readonly streams = new Map<string, FakeStream>();
  /** liveBroadcasts.insert calls that made a broadcast. */
  inserted = 0;
  private readonly ingestBase: string;

  constructor(private readonly settings: LiveSettings) {
    this.ingestBase = settings.ingestBase.replace(/\/+$/, '');
  }

  /** `key` is `METHOD /path` under the API base; the caller checked the token (of channel `channelId`). */
  async handle(key: string, channelId: string, query: URLSearchParams, json: unknown): Promise<FakeReply> {
    if (key === 'POST /liveBroadcasts') return this.insertBroadcast(channelId, json);
    if (key === 'POST /liveStreams') return this.insertStream(channelId, json);
    if (key === 'GET /liveBroadcasts') {
      const ids = (query.get('id') ?? '').split(',');
      const items = [...this.broadcasts.values()].filter((b) => b.channelId === channelId && ids.includes(b.id));
      return {
        status: 200,
        json: { kind: 'youtube#liveBroadcastListResponse', items: items.map((item) => this.broadcastResource(item)) },
      };
    }
    if (key === 'GET /liveStreams') {
      const ids = (query.get('id') ?? '').split(',');
      const mine = [...this.streams.values()].filter((s) => s.channelId === channelId && ids.includes(s.id));
      return {
        status: 200,
        json: {
          kind: 'youtube#liveStreamListResponse',
          items: await Promise.all(mine.map((item) => this.streamResource(item))),
        },
      };
    }
    if (key === 'POST /liveBroadcasts/bind') {
      const broadcast = this.broadcasts.get(query.get('id') ?? '');
      if (!broadcast || broadcast.channelId !== channelId) {
        return youtubeError(404, 'liveBroadcastNotFound', 'Broadcast not found', 'youtube.liveBroadcast');
      }
      const stream = this.streams.get(query.get('streamId') ?? '');
      if (!stream || stream.channelId !== channelId) {
        return youtubeError(404, 'liveStreamNotFound', 'Stream not found', 'youtube.liveBroadcast');
      }
      broadcast.boundStreamId = stream.id;
      if (broadcast.lifeCycleStatus === 'created') broadcast.lifeCycleStatus = 'ready';
      return { status: 200, json: this.broadcastResource(broadcast) };
    }
    if (key === 'POST /liveBroadcasts/transition') return this.transition(channelId, query);
    return youtubeError(404, 'notFound', 'Not Found', 'global');
  }

  async streamResource(stream: FakeStream) {
    const isActive = await this.settings.isStreamActive(stream.streamName);
    return {
      kind: 'youtube#liveStream',
      id: stream.id,
      snippet: { channelId: stream.channelId, title: stream.title },
      cdn: {
        ingestionType: 'rtmp',
        resolution: 'variable',
        frameRate: 'variable',
        ingestionInfo: {
          streamName: stream.streamName,
          ingestionAddress: this.ingestBase,
          backupIngestionAddress: `${this.ingestBase}?backup=1`,
          rtmpsIngestionAddress: this.ingestBase.replace(/^rtmp:/, 'rtmps:'),
        },
      },
      status: { streamStatus: isActive ? 'active' : 'ready', healthStatus: { status: isActive ? 'good' : 'noData' } },
    };
  }

  broadcastResource(broadcast: FakeBroadcast) {
    return {
      kind: 'youtube#liveBroadcast',
      id: broadcast.id,
      snippet: {
        channelId: broadcast.channelId,
        title: broadcast.title,
        description: broadcast.description,
        scheduledStartTime: broadcast.scheduledStartTime,
        liveChatId: `Cg0KC${broadcast.id}`,
      },
      status: { lifeCycleStatus: broadcast.lifeCycleStatus, privacyStatus: broadcast.privacyStatus },
      contentDetails: {
        boundStreamId: broadcast.boundStreamId,
        enableAutoStart: false,
        enableAutoStop: false,
        monitorStream: { enableMonitorStream: broadcast.enableMonitorStream },
      },
    };
  }

  insertBroadcast(channelId: string, body: unknown): FakeReply {
    if (!this.settings.isLiveStreamingEnabled()) {
      return youtubeError(
        403,
        'liveStreamingNotEnabled',
        'The user is not enabled for live streaming.',
        'youtube.liveBroadcast',
      );
    }
    const resource = (body ?? {}) as {
      snippet?: { title?: string; description?: string; scheduledStartTime?: string };
      status?: { privacyStatus?: string };
      contentDetails?: { monitorStream?: { enableMonitorStream?: boolean } };
    };
    const title = resource.snippet?.title ?? '';
    if (!title || title.length > 100 || /[<>]/.test(title)) {
      return youtubeError(
        400,
        'invalidTitle',
        'The value of the snippet.title property is invalid.',
        'youtube.liveBroadcast',
      );
    }
    if (!resource.snippet?.scheduledStartTime) {
      return youtubeError(400, 'scheduledStartTimeRequired', 'Scheduled start time required.', 'youtube.liveBroadcast');
    }
    const privacyStatus = resource.status?.privacyStatus ?? '';
    if (!['public', 'unlisted', 'private'].includes(privacyStatus)) {
      return youtubeError(400, 'invalidPrivacyStatus', 'Invalid privacy status.', 'youtube.liveBroadcast');
    }
    const broadcast: FakeBroadcast = {
      id: randomId(8),
      channelId,
      title,
      description: resource.snippet.description ?? '',
      privacyStatus,
      scheduledStartTime: resource.snippet.scheduledStartTime,
      enableMonitorStream: resource.contentDetails?.monitorStream?.enableMonitorStream ?? true,
      lifeCycleStatus: 'created',
      boundStreamId: undefined,
    };
    this.broadcasts.set(broadcast.id, broadcast);
    this.inserted += 1;
    return { status: 200, json: this.broadcastResource(broadcast) };
  }

  async insertStream(channelId: string, body: unknown): Promise<FakeReply> {
    const resource = (body ?? {}) as {
      snippet?: { title?: string };
      cdn?: { ingestionType?: string; resolution?: string; frameRate?: string };
    };
    if (!resource.snippet?.title)
      return youtubeError(400, 'titleRequired', 'The stream title is required.', 'youtube.liveStream');
    if (!resource.cdn?.ingestionType || !resource.cdn.resolution || !resource.cdn.frameRate) {
      return youtubeError(400, 'ingestionTypeRequired', 'The cdn settings are required.', 'youtube.liveStream');
    }
    const stream: FakeStream = {
      id: `${channelId}${randomId(6)}`,
      channelId,
      title: resource.snippet.title,
      streamName: [0, 1, 2, 3, 4].map(() => randomId(3).replace(/[-_]/g, 'x').toLowerCase().slice(0, 4)).join('-'),
    };
    this.streams.set(stream.id, stream);
    return { status: 200, json: await this.streamResource(stream) };
  }

  async transition(channelId: string, query: URLSearchParams): Promise<FakeReply> {
    const broadcast = this.broadcasts.get(query.get('id') ?? '');
    if (!broadcast || broadcast.channelId !== channelId) {
      return youtubeError(404, 'liveBroadcastNotFound', 'Broadcast not found', 'youtube.liveBroadcast');
    }
    const target = query.get('broadcastStatus');
    if (target !== 'testing' && target !== 'live' && target !== 'complete') {
      return youtubeError(400, 'invalidValue', 'Invalid broadcastStatus', 'youtube.liveBroadcast');
    }
    if (broadcast.lifeCycleStatus === target) {
      return youtubeError(403, 'redundantTransition', 'Redundant transition', 'youtube.liveBroadcast');
    }
    const from = broadcast.lifeCycleStatus;
    const allowed =
      (target === 'testing' && from === 'ready' && broadcast.enableMonitorStream) ||
      (target === 'live' && (from === 'testing' || (from === 'ready' && !broadcast.enableMonitorStream))) ||
      (target === 'complete' && (from === 'live' || from === 'testing'));
    if (!allowed) return youtubeError(403, 'invalidTransition', 'Invalid transition', 'youtube.liveBroadcast');
    const stream = this.streams.get(broadcast.boundStreamId ?? '');
    if (target !== 'complete' && (!stream || !(await this.settings.isStreamActive(stream.streamName)))) {
      return youtubeError(403, 'errorStreamInactive', 'Stream is inactive', 'youtube.liveBroadcast');
    }
    broadcast.lifeCycleStatus = target;
    return { status: 200, json: this.broadcastResource(broadcast) };
  }
}
