import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WATCH_STARTED_BY_PROXY_PARAM } from '@meetcast/contracts';
import { eq, inArray, and, liveBroadcasts } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import WebSocket, { WebSocketServer } from 'ws';
import type { AppContext } from '../../context.js';
import { refuseUpgrade, relayJanusSocket, type JanusRelay } from '../../media/janus-relay.js';
import { filterViewerMessage, type ViewerFilterContext } from './viewer-filter.js';
import { mountpointId, readViewerGrant } from './viewer-keys.js';

export const VIEWER_PROXY_PATH = '/janus-watch';
/**
 * Viewers of a live broadcast reach Janus here, like participants do at /janus (ADR 003): a
 * WebSocket on our own origin, accepted for a current viewer grant of a running broadcast, bridged
 * to the Janus that holds its mountpoint, every message filtered (viewer-filter.ts). One Janus
 * session per connection; the connections close when the broadcast ends.
 */
export function attachViewerProxy(app: FastifyInstance, context: AppContext) {
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: 128 * 1024,
    handleProtocols: (protocols) => (protocols.has('janus-protocol') ? 'janus-protocol' : false),
  });
  const open = new Set<WebSocket>();

  const upgrade = async (
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    grant: string | null,
    startsWatch: boolean,
  ) => {
    const broadcastId = readViewerGrant(context.config, grant);
    const [broadcast] = broadcastId
      ? await context.db
          .select({ id: liveBroadcasts.id, meetingId: liveBroadcasts.meetingId })
          .from(liveBroadcasts)
          .where(and(eq(liveBroadcasts.id, broadcastId), inArray(liveBroadcasts.state, ['starting', 'live'])))
      : [];
    if (!broadcast) {
      refuseUpgrade(socket, 401, 'Unauthorized');
      return;
    }
    const placed = await context.media.placedStreaming(broadcast.meetingId);
    if (!placed) {
      refuseUpgrade(socket, 503, 'Service Unavailable');
      return;
    }
    server.handleUpgrade(request, socket, head, (browser) => {
      open.add(browser);
      const room = {
        mountpoint: mountpointId(context.config, broadcast.id),
        pin: placed.pin,
        apiSecret: placed.target.apiSecret,
      };
      const relay = bridge(browser, placed.target.url, room);
      if (startsWatch) startWatch(relay, room);
    });
  };

  const bridge = (browser: WebSocket, url: string, room: MountpointAccess) => {
    const relay = relayJanusSocket(browser, url);
    browser.on('message', (raw) => forwardViewerMessage(relay, room, String(raw)));
    const finish = () => {
      open.delete(browser);
      if (browser.readyState === WebSocket.OPEN) browser.close(1000, 'closed');
      else browser.terminate();
      // A viewer never claims a session back (a new connection watches afresh): its session ends with
      // the connection, or Janus would count it and feed it until its reclaim timeout (20 s). The
      // upstream is closed, not cut, so the destroy reaches Janus.
      relay.endSessions(room.apiSecret);
      relay.upstream.close();
    };
    browser.on('close', finish);
    browser.on('error', finish);
    relay.upstream.on('close', finish);
    return relay;
  };

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
    app.server.off('upgrade', onUpgrade);
    for (const browser of open) browser.close(1001, 'server closing');
    server.close();
  });
}

type MountpointAccess = Omit<ViewerFilterContext, 'sessions'>;

/** A viewer's message (or one the proxy says for it), judged by the filter; one session per connection. */
function forwardViewerMessage(relay: JanusRelay, room: MountpointAccess, text: string) {
  let result: ReturnType<typeof filterViewerMessage>;
  try {
    result = filterViewerMessage(text, { ...room, sessions: relay.sessions });
  } catch {
    // A message the filter cannot even judge is refused like any other; it never takes the server down.
    result = { kind: 'reject', transaction: undefined, reason: 'not_allowed' };
  }
  relay.forward(result, 1);
}

/**
 * The proxy's own start of a watch (`?start=1`): session, Streaming handle and `watch`, each sent
 * as soon as Janus answered the one before, instead of after a round trip to a page that is still
 * evaluating its scripts (issue 13). Janus' answers pass on to the browser as always: it reads the
 * session and handle from the offer's event, and answers with `start`. A refusal reaches it too.
 */
function startWatch(relay: JanusRelay, room: MountpointAccess) {
  const say = (message: Record<string, unknown>) => forwardViewerMessage(relay, room, JSON.stringify(message));
  relay.expectCreated('proxy-create', (session) => {
    relay.expectCreated('proxy-attach', (handle) =>
      say({
        janus: 'message',
        transaction: 'proxy-watch',
        session_id: session,
        handle_id: handle,
        body: { request: 'watch' },
      }),
    );
    say({ janus: 'attach', transaction: 'proxy-attach', session_id: session, plugin: 'janus.plugin.streaming' });
  });
  say({ janus: 'create', transaction: 'proxy-create' });
}
