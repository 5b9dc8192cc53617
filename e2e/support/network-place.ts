import { chmodSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import type { Place } from '@meetcast/testkit/netns/network-lab';

/** The forwarder's program: each connection to `listen` piped to the loopback's `target` port. */
const FORWARDER = `
const { connect, createServer } = require('node:net');
const [host, port, target] = process.argv.slice(1);
const sockets = new Set();
const server = createServer((inside) => {
  const local = connect({ host: '127.0.0.1', port: Number(target) });
  for (const socket of [inside, local]) {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  }
  inside.pipe(local).pipe(inside);
});
server.listen(Number(port), host, () => process.stdout.write('ready\\n'));
process.on('SIGTERM', () => {
  for (const socket of sockets) socket.destroy();
  process.exit(0);
});
`;

/**
 * A server that listens on the loopback only is reached from a network namespace through this
 * machine's end of the namespace's link: cutting the link then cuts the browser's every connection.
 * The forwarder is a process of its own, so that the test's own work (its browsers' events, its
 * synchronous `ip` commands) never holds up a connection and adds to what the test measures.
 * Returns the function that stops it.
 */
export async function forwardFromLink(place: Place, port: number, targetPort = port) {
  const child = spawn(process.execPath, ['-e', FORWARDER, place.serverAddress, String(port), String(targetPort)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the forwarder exited (${code})`)));
  });
  return () => {
    child.kill('SIGTERM');
  };
}

/**
 * Chromium started inside `namespace` by a script Playwright takes for the browser: the control pipe
 * Playwright holds is inherited through `ip netns exec`, so the browser stays driven while its network
 * is cut.
 */
export function chromiumIn(namespace: string, folder: string) {
  const script = join(folder, 'chromium-in-namespace');
  writeFileSync(script, `#!/bin/sh\nexec ip netns exec ${namespace} ${CHROMIUM_PATH} "$@"\n`);
  chmodSync(script, 0o755);
  return script;
}

export interface SelectedPair {
  connection: 'publisher' | 'subscriber';
  candidateType?: string;
  protocol?: string;
  relayProtocol?: string;
}

/**
 * The local candidate of the pair each of the page's connections (our camera's and the one that
 * receives the others) has selected, from getStats: its type, and for a relay how it reaches TURN.
 */
export function selectedLocalCandidates(page: Page): Promise<SelectedPair[]> {
  return page.evaluate(async () => {
    type Room = {
      publisherConnection(): RTCPeerConnection | undefined;
      subscriberConnection?(): RTCPeerConnection | undefined;
    };
    const room = (window as unknown as { __meetcastRoom?: Room }).__meetcastRoom;
    const connections = [
      ['publisher', room?.publisherConnection()],
      ['subscriber', room?.subscriberConnection?.()],
    ] as const;
    const found: SelectedPair[] = [];
    for (const [name, connection] of connections) {
      if (!connection) continue;
      const reports = new Map<string, Record<string, unknown>>();
      (await connection.getStats()).forEach((report: Record<string, unknown>) =>
        reports.set(String(report.id), report),
      );
      for (const report of reports.values()) {
        if (report.type !== 'transport' || !report.selectedCandidatePairId) continue;
        const pair = reports.get(String(report.selectedCandidatePairId));
        const local = pair && reports.get(String(pair.localCandidateId));
        found.push({
          connection: name,
          candidateType: local?.candidateType as string | undefined,
          protocol: local?.protocol as string | undefined,
          relayProtocol: local?.relayProtocol as string | undefined,
        });
      }
    }
    return found;
  });
}
