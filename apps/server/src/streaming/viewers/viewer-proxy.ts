import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { JANUS_PLUGINS, janusRequest, WATCH_STARTED_BY_PROXY_PARAM } from '@meetcast/contracts';
import { and, eq, inArray, liveBroadcasts } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import WebSocket, { WebSocketServer } from 'ws';
import type { AppContext } from '../../context.js';
import { clientAddress } from '../../http/client-address.js';
import type { AppEventMap } from '../../platform/app-events.js';
import { refuseUpgrade, relayJanusSocket, type JanusRelay } from '../../media/janus-relay.js';
import { AudienceBalance, watchInstances } from './audience-instances.js';
import { runningBroadcasts } from './viewer-audience.js';
import { VIEWER_CONNECTIONS_PER_GRANT, ViewerConnections } from './viewer-connections.js';
import { filterViewerMessage, type ViewerFilterContext } from './viewer-filter.js';
import { mountpointId, readPreviewGrant, readViewerGrant } from './viewer-keys.js';

export const VIEWER_PROXY_PATH = '/janus-watch';
/** A connection that has not started watching by then is closed, and its Janus session ended. */
export const VIEWER_WATCH_START_MS = 15_000;
/** How often the open connections are checked against their broadcast (ended, or made private elsewhere). */
const AUDIENCE_CHECK_MS = 3000;

/**
 * Viewers of a live broadcast reach Janus here, like participants do at /janus (ADR 003): a
 * WebSocket on our own origin, accepted for a current viewer grant of a running broadcast of a
 * public meeting, bridged to the Janus that holds its mountpoint, every message filtered
 * (viewer-filter.ts). One Janus session per connection, a few connections per grant, a limited
 * number per address and per broadcast (viewer-connections.ts); the connections close when the
 * broadcast ends or its meeting stops being public. The studio's preview (ADR 047) comes the same
 * way with a preview grant: admitted while the broadcast runs whatever the meeting's visibility,
 * counted apart, and closed when the broadcast ends.
 */
export function attachViewerProxy(app: FastifyInstance, context: AppContext) {
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: 128 * 1024,
    handleProtocols: (protocols) => (protocols.has('janus-protocol') ? 'janus-protocol' : false),
  });
  const balance = new AudienceBalance();
  const limits = { perGrant: VIEWER_CONNECTIONS_PER_GRANT, ...context.config.viewerLimits };
  const connections = new ViewerConnections(limits);
  /** The studio previews' connections: a meeting made private keeps them, an ended broadcast does not. */
  const previews = new ViewerConnections(limits);
  const pools = [
    { pool: connections, isPublicOnly: true },
    { pool: previews, isPublicOnly: false },
  ];

  const upgrade = async (
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    grant: string | null,
    startsWatch: boolean,
  ) => {
    const viewerOf = readViewerGrant(context.config, grant);
    const previewOf = viewerOf ? undefined : readPreviewGrant(context.config, grant);
    const broadcastId = viewerOf ?? previewOf;
    if (!broadcastId || !grant) {
      refuseUpgrade(socket, 401, 'Unauthorized');
      return;
    }
    const isPreview = previewOf !== undefined;
    const pool = isPreview ? previews : connections;
    const reservation = pool.reserve(grant, clientAddress(request, context.config.trustProxy), broadcastId);
    if (!reservation) {
      refuseUpgrade(socket, 429, 'Too Many Requests');
      return;
    }
    // The reservation, and once placed, the instance's place too.
    let release = reservation;
    try {
      const running = await runningBroadcasts(context, [broadcastId], { isPublicOnly: !isPreview });
      const broadcast = running.get(broadcastId);
      if (!broadcast) {
        release();
        refuseUpgrade(socket, 401, 'Unauthorized');
        return;
      }
      // The least loaded of the instances holding the broadcast's mountpoint (ADR 036).
      const placement = balance.pick(await watchInstances(context, broadcast.meetingId));
      if (!placement) {
        release();
        refuseUpgrade(socket, 503, 'Service Unavailable');
        return;
      }
      const placed = placement.instance;
      release = () => {
        reservation();
        placement.release();
      };
      socket.once('close', release);
      server.handleUpgrade(request, socket, head, (browser) => {
        const room = {
          mountpoint: mountpointId(context.config, broadcastId),
          pin: placed.pin,
          apiSecret: placed.target.apiSecret,
        };
        const relay = bridge(
          pool,
          browser,
          placed.target.url,
          room,
          { broadcastId, meetingId: broadcast.meetingId },
          release,
        );
        if (startsWatch) startWatch(relay, room);
      });
    } catch (error) {
      release();
      throw error;
    }
  };

  const bridge = (
    pool: ViewerConnections,
    browser: WebSocket,
    url: string,
    room: MountpointAccess,
    watched: AppEventMap['broadcast.changed'],
    release: () => void,
  ) => {
    const { broadcastId } = watched;
    pool.track(broadcastId, browser);
    const relay = relayJanusSocket(browser, url);
    let hasStarted = false;
    // The audience is part of what the pages are pushed: a viewer who starts or stops watching is a change.
    const audienceChanged = () => void context.events.emit('broadcast.changed', watched);
    browser.on('message', (raw) => {
      if (forwardViewerMessage(relay, room, String(raw)) === 'start' && !hasStarted) {
        hasStarted = true;
        audienceChanged();
      }
    });
    let isFinished = false;
    const finish = () => {
      if (isFinished) return;
      isFinished = true;
      if (hasStarted) audienceChanged();
      clearTimeout(idle);
      release();
      pool.untrack(broadcastId, browser);
      if (browser.readyState === WebSocket.OPEN) browser.close(1000, 'closed');
      else browser.terminate();
      // A viewer never claims a session back (a new connection watches afresh): its session ends with
      // the connection, or Janus would count it and feed it until its reclaim timeout (longer than the
      // room's reconnect grace, ADR 032). The upstream is closed, not cut, so the destroy reaches Janus.
      relay.endSessions(room.apiSecret);
      relay.upstream.close();
    };
    // A connection that only holds a session (or nothing) is no viewer: it gives its place back.
    const idle = setTimeout(() => {
      if (!hasStarted) finish();
    }, VIEWER_WATCH_START_MS);
    idle.unref();
    browser.on('close', finish);
    browser.on('error', finish);
    relay.upstream.on('close', finish);
    return relay;
  };

  /** Closes the connections of these broadcasts (their Janus sessions end with them). */
  const drop = (broadcastIds: number[], pool = connections) => {
    for (const id of broadcastIds) {
      for (const browser of pool.socketsOf(id)) browser.close(4403, 'not watchable');
    }
  };
  /**
   * What no longer may be watched loses its viewers: ended, or its meeting made private (elsewhere
   * too); the previews only once it ended.
   */
  const checkAudiences = async () => {
    for (const { pool, isPublicOnly } of pools) {
      const open = pool.broadcastIds();
      if (open.length === 0) continue;
      const watchable = await runningBroadcasts(context, open, { isPublicOnly });
      drop(
        open.filter((id) => !watchable.has(id)),
        pool,
      );
    }
  };
  const timer = setInterval(() => {
    checkAudiences().catch((error: unknown) => context.log.warn({ err: error }, 'viewers: audience check failed'));
  }, AUDIENCE_CHECK_MS);
  timer.unref();

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== VIEWER_PROXY_PATH) return;
    const startsWatch = url.searchParams.get(WATCH_STARTED_BY_PROXY_PARAM) === '1';
    upgrade(request, socket, head, url.searchParams.get('grant'), startsWatch).catch((error: unknown) => {
      context.log.warn({ err: error }, 'viewers: proxy upgrade failed');
      refuseUpgrade(socket, 503, 'Service Unavailable');
    });
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('preClose', async () => {
    clearInterval(timer);
    app.server.off('upgrade', onUpgrade);
    for (const { pool } of pools) {
      for (const id of pool.broadcastIds()) {
        for (const browser of pool.socketsOf(id)) browser.close(1001, 'server closing');
      }
    }
    server.close();
  });
  return {
    connections,
    /** A meeting made private or given a password: its broadcasts' viewers here are dropped now. */
    dropMeetingAudience: async (meetingId: number) => {
      const open = connections.broadcastIds();
      if (open.length === 0) return;
      const rows = await context.db
        .select({ id: liveBroadcasts.id })
        .from(liveBroadcasts)
        .where(and(inArray(liveBroadcasts.id, open), eq(liveBroadcasts.meetingId, meetingId)));
      drop(rows.map((row) => row.id));
      await checkAudiences();
    },
  };
}

type MountpointAccess = Omit<ViewerFilterContext, 'sessions'>;

/**
 * A viewer's message (or one the proxy says for it), judged by the filter; one session per
 * connection. Says 'start' when it was the viewer's answer that starts the media.
 */
function forwardViewerMessage(relay: JanusRelay, room: MountpointAccess, text: string): 'start' | undefined {
  let result: ReturnType<typeof filterViewerMessage>;
  try {
    result = filterViewerMessage(text, { ...room, sessions: relay.sessions });
  } catch {
    // A message the filter cannot even judge is refused like any other; it never takes the server down.
    result = { kind: 'reject', transaction: undefined, reason: 'not_allowed' };
  }
  relay.forward(result, 1);
  const body = result.kind === 'forward' ? result.message.body : undefined;
  return typeof body === 'object' && body !== null && 'request' in body && body.request === 'start'
    ? 'start'
    : undefined;
}

/**
 * The proxy's own start of a watch (`?start=1`): session, Streaming handle and `watch`, each sent
 * as soon as Janus answered the one before, instead of after a round trip to a page that is still
 * evaluating its scripts (the first frame is due within a second). Janus' answers pass on to the browser as always: it reads the
 * session and handle from the offer's event, and answers with `start`. A refusal reaches it too.
 */
function startWatch(relay: JanusRelay, room: MountpointAccess) {
  const say = (message: object, transaction: string) =>
    forwardViewerMessage(relay, room, JSON.stringify({ ...message, transaction }));
  relay.expectCreated('proxy-create', (session) => {
    relay.expectCreated('proxy-attach', (handle) =>
      say(janusRequest.message(session, handle, { request: 'watch' }), 'proxy-watch'),
    );
    say(janusRequest.attach(session, JANUS_PLUGINS.streaming), 'proxy-attach');
  });
  say(janusRequest.create(), 'proxy-create');
}
