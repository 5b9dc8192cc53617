import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { BackoffSchedule } from '../../platform/backoff.js';
import { killStale, ManagedChild } from '../../platform/managed-child.js';
import { writeCoturnConfig, type CoturnSettings } from './coturn-config.js';

const TURN_RESTARTS: BackoffSchedule = { firstMs: 250, maxMs: 30_000 };
const START_TIMEOUT_MS = 5000;

/** coturn's settings, but for its folder and secret, which it is given under DATA_DIR and makes itself. */
export type ManagedTurnOptions = Omit<CoturnSettings, 'folder' | 'secret'> & {
  dataDir: string;
  log: FastifyBaseLogger;
  binary: string;
};

function tcpAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The coturn this server starts itself when TURN_URL is not set (ADR 035), as it does Janus: a
 * generated configuration under DATA_DIR with a secret of this process's own, bound to this process
 * (it dies with it), started on first use and restarted with back-off when it dies.
 */
export class ManagedTurn {
  /** Shared with coturn only; credentials handed to pages are made from it and expire. */
  readonly secret = randomBytes(32).toString('base64url');
  private readonly child: ManagedChild<true>;

  constructor(private readonly options: ManagedTurnOptions) {
    this.child = new ManagedChild({
      log: options.log,
      topic: 'turn',
      name: 'coturn',
      withoutIt: 'browsers get no TURN relay',
      restarts: TURN_RESTARTS,
      prepare: async () => {
        const folder = join(this.options.dataDir, 'turn');
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        const config = writeCoturnConfig({ folder, secret: this.secret, ...this.options });
        killStale(join(folder, 'turnserver.pid'), 'turnserver', folder);
        return {
          binary: this.options.binary,
          args: ['-c', config],
          answers: () => tcpAnswers(this.options.port),
          readyWithinMs: START_TIMEOUT_MS,
          notReady: `coturn did not come up on port ${this.options.port} (see ${join(folder, 'turn.log')})`,
          result: true,
        };
      },
    });
  }

  get running(): boolean {
    return this.child.running !== undefined;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get failure(): string | undefined {
    return this.child.failure;
  }

  async ensureStarted(): Promise<void> {
    await this.child.ensureStarted();
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}
