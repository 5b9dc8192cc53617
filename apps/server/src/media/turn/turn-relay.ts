import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../env.js';
import { ownAddresses } from '../public-address.js';
import { ManagedTurn } from './managed-turn.js';
import { turnCredential } from './turn-credentials.js';

/** A STUN/TURN server as a browser's RTCPeerConnection takes it (the contract's IceServers). */
export interface IceServer {
  urls: string;
  username?: string;
  credential?: string;
}

/** The first join after a start waits this long at most for our coturn; later ones not at all. */
const FIRST_START_WAIT_MS = 3000;

function portFree(port: number): Promise<boolean> {
  const tcp = new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
  const udp = new Promise<boolean>((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, () => socket.close(() => resolve(true)));
  });
  return Promise.all([tcp, udp]).then(([a, b]) => a && b);
}

/** Where browsers reach this machine's coturn: its public address, or PUBLIC_URL's host. */
function managedHost(config: AppConfig): string {
  if (!config.publicIp) return new URL(config.publicUrl).hostname;
  return config.publicIp.includes(':') ? `[${config.publicIp}]` : config.publicIp;
}

/** The STUN/TURN addresses pages are given under this configuration (the health check tries them). */
export function turnAddresses(config: AppConfig): string[] {
  const turn = config.turn;
  if (turn.mode === 'off') return [];
  if (turn.mode === 'external') return turn.urls;
  const host = managedHost(config);
  return [
    `turn:${host}:${turn.port}?transport=udp`,
    `turn:${host}:${turn.port}?transport=tcp`,
    ...(turn.tls ? [`turns:${host}:${turn.tls.port}?transport=tcp`] : []),
  ];
}

/**
 * The TURN relay browsers are told about (ADR 035): none (TURN=off), TURN_URL's server, or the
 * coturn this process starts. Every answer carries credentials of its own that expire (the TURN REST
 * API's shared secret); no fixed password ever reaches a page.
 */
export class TurnRelay {
  readonly managed: ManagedTurn | undefined;
  private readonly urls: string[];
  private readonly secret: string | undefined;
  private portChecked: Promise<boolean> | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    const turn = config.turn;
    this.urls = turnAddresses(config);
    if (turn.mode === 'managed') {
      this.managed = new ManagedTurn({
        dataDir: config.dataDir,
        log,
        binary: turn.binary,
        port: turn.port,
        relayPortRange: turn.relayPortRange,
        realm: managedHost(config).replace(/^\[|\]$/g, ''),
        externalIp: config.publicIp,
        tls: turn.tls,
        ownAddresses: ownAddresses(),
      });
      this.secret = this.managed.secret;
    } else {
      this.secret = turn.mode === 'external' ? turn.secret : undefined;
    }
  }

  /** STUN/TURN servers for one participant or viewer, with a credential made for them now. */
  async iceServers(userId: string): Promise<IceServer[]> {
    if (this.urls.length === 0) return [];
    if (this.managed && !(await this.managedReady())) return [];
    const credential = this.secret ? turnCredential(this.secret, userId) : undefined;
    return this.urls.map((urls) => (urls.startsWith('stun:') || !credential ? { urls } : { urls, ...credential }));
  }

  private async managedReady(): Promise<boolean> {
    const managed = this.managed!;
    if (managed.running) return true;
    // A port someone else holds (another process's coturn) would answer with its own secret.
    this.portChecked ??= portFree(this.config.turn.mode === 'managed' ? this.config.turn.port : 0).then((free) => {
      if (!free) {
        this.log.error(
          'turn: the TURN port is taken by another program; set TURN_PORT, or TURN_URL and TURN_SECRET to use that server',
        );
      }
      return free;
    });
    if (!(await this.portChecked)) return false;
    const started = managed.ensureStarted().then(
      () => true,
      () => false,
    );
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), FIRST_START_WAIT_MS).unref());
    return Promise.race([started, timeout]);
  }

  close(): Promise<void> {
    return this.managed?.stop() ?? Promise.resolve();
  }
}
