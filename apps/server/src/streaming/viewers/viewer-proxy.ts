import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { eq, inArray, and, liveBroadcasts } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import WebSocket, { WebSocketServer } from 'ws';
import type { AppContext } from '../../context.js';
import { refuseUpgrade, relayJanusSocket } from '../../media/janus-relay.js';
import { filterViewerMessage } from './viewer-filter.js';
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

  const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer, grant: string | null) => {
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
      bridge(browser, placed.target.url, {
        mountpoint: mountpointId(context.config, broadcast.id),
        pin: placed.pin,
        apiSecret: placed.target.apiSecret,
      });
    });
  };

  const bridge = (
    browser: WebSocket,
    url: string,
    room: { mountpoint: number; pin: string; apiSecret: string | undefined },
  ) => {
    const relay = relayJanusSocket(browser, url);
    browser.on('message', (raw) => {
      let result: ReturnType<typeof filterViewerMessage>;
      try {
        result = filterViewerMessage(String(raw), { ...room, sessions: relay.sessions });
      } catch {
        // A message the filter cannot even judge is refused like any other; it never takes the server down.
        result = { kind: 'reject', transaction: undefined, reason: 'not_allowed' };
      }
      // One session per viewer connection.
      relay.forward(result, 1);
    });
    const finish = () => {
      open.delete(browser);
      if (browser.readyState === WebSocket.OPEN) browser.close(1000, 'closed');
      else browser.terminate();
      relay.upstream.terminate();
    };
    browser.on('close', finish);
    browser.on('error', finish);
    relay.upstream.on('close', finish);
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== VIEWER_PROXY_PATH) return;
    upgrade(request, socket, head, url.searchParams.get('grant')).catch((error: unknown) => {
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
