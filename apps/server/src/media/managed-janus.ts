import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import type { BackoffSchedule } from '../platform/backoff.js';
import { killStale, ManagedChild } from '../platform/managed-child.js';
import { writeJanusConfig } from './janus-config.js';
import { publicAddressFromUrl } from './public-address.js';

/** A Janus that keeps crashing is started again less and less often, at least every 30 s. */
const JANUS_RESTARTS: BackoffSchedule = { firstMs: 250, maxMs: 30_000 };

export interface ManagedJanusOptions {
  dataDir: string;
  log: FastifyBaseLogger;
  binary?: string;
  rtpPortRange: string;
  /** JANUS_NAT_1_1_MAPPING or PUBLIC_IP; unset: PUBLIC_URL's host when it is public and not ours. */
  nat11Mapping: string | undefined;
  publicUrl: string;
  /** How long Janus keeps a silent or disconnected session (janusSessionTimeoutSeconds). */
  sessionTimeoutSeconds: number;
  /** Given secrets instead of random ones: a test runs instances it names in JANUS_URL with one secret. */
  secrets?: { apiSecret: string; adminKey: string };
}

/** Asks the kernel for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function portAnswers(port: number, apiSecret: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, 'janus-protocol');
    const done = (ok: boolean) => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      resolve(ok);
    };
    socket.once('open', () =>
      socket.send(JSON.stringify({ janus: 'info', transaction: 'ready', apisecret: apiSecret })),
    );
    socket.once('message', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The Janus this server starts itself when JANUS_URL is not set: a generated configuration under
 * DATA_DIR, started on first use, restarted with back-off when it dies. `restarted` fires after a
 * restart so that live rooms can be created again.
 */
export class ManagedJanus extends EventEmitter<{ restarted: [url: string]; exited: [] }> {
  readonly adminKey: string;
  readonly apiSecret: string;
  private port: number | undefined;
  private readonly child: ManagedChild<string>;

  constructor(private readonly options: ManagedJanusOptions) {
    super();
    this.adminKey = options.secrets?.adminKey ?? randomBytes(24).toString('base64url');
    this.apiSecret = options.secrets?.apiSecret ?? randomBytes(24).toString('base64url');
    const folder = join(options.dataDir, 'janus');
    this.child = new ManagedChild({
      log: options.log,
      topic: 'media',
      name: 'janus',
      withoutIt: 'rooms are unavailable until it is installed',
      restarts: JANUS_RESTARTS,
      prepare: () => this.prepare(folder),
      // Read at the next start: a Janus this process did not stop is ended then.
      onStarted: (child) => {
        if (child.pid) writeFileSync(join(folder, 'janus.pid'), String(child.pid));
      },
      // Another process may have taken the port meanwhile: pick a new one next time.
      onNotReady: () => {
        this.port = undefined;
      },
      onExited: () => this.emit('exited'),
      onRestarted: (url) => this.emit('restarted', url),
    });
  }

  /** Janus's address from its spawn on, before it answers (a restarted one keeps its port). */
  get url(): string | undefined {
    return this.child.spawned;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Why the last start failed, for logs and health answers. */
  get failure(): string | undefined {
    return this.child.failure;
  }

  /** Starts Janus if it is not running; resolves with its WebSocket URL. */
  ensureStarted(): Promise<string> {
    return this.child.ensureStarted();
  }

  stop(): Promise<void> {
    return this.child.stop();
  }

  private async prepare(folder: string) {
    // Keep the port across restarts so that the rooms' recorded address stays right.
    const port = this.port ?? (await freePort());
    this.port = port;
    const nat11Mapping = this.options.nat11Mapping ?? (await publicAddressFromUrl(this.options.publicUrl));
    if (nat11Mapping) this.options.log.info({ nat11Mapping }, 'media: janus announces this public address');
    const configFile = writeJanusConfig({
      folder,
      port,
      adminKey: this.adminKey,
      apiSecret: this.apiSecret,
      rtpPortRange: this.options.rtpPortRange,
      nat11Mapping,
      sessionTimeoutSeconds: this.options.sessionTimeoutSeconds,
    });
    killStale(join(folder, 'janus.pid'), 'janus', folder);
    return {
      binary: this.options.binary ?? 'janus',
      args: ['-F', folder, '-C', configFile, '-o', '-N', '-L', join(folder, 'janus.log')],
      answers: () => portAnswers(port, this.apiSecret),
      readyWithinMs: 10_000,
      notReady: `janus did not come up (see ${join(folder, 'janus.log')})`,
      result: `ws://127.0.0.1:${port}`,
    };
  }
}
