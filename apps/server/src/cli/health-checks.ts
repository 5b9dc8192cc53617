import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { connect } from 'node:net';
import { availableParallelism } from 'node:os';
import { inArray, liveBroadcasts, type DatabaseHandle } from '@meetcast/db';
import WebSocket from 'ws';
import type { AppConfig } from '../env.js';
import { turnAddresses } from '../media/turn/turn-relay.js';
import { pickQuality, qualityNamed, type Quality } from '../streaming/composer/capacity.js';
import { CHROMIUM } from '../streaming/composer/layout-browser.js';
import { ANSWER_TIMEOUT_MS, oneShotRedis } from './cli-context.js';

export interface CheckResult {
  name: string;
  ok: boolean;
  /** The figure or the reason: a version, a latency, a count, free space. */
  detail: string;
}

/** Below this much free space under DATA_DIR a recording or an upload may not fit. */
const MIN_FREE_DISK_BYTES = 1024 ** 3;

const elapsed = (since: number) => `${Date.now() - since} ms`;

export async function checkRedis(config: AppConfig): Promise<CheckResult> {
  if (!config.redisUrl) return { name: 'redis', ok: true, detail: 'not configured (one server process)' };
  const redis = oneShotRedis(config.redisUrl);
  const started = Date.now();
  try {
    await redis.connect();
    const answer = await redis.ping();
    return { name: 'redis', ok: answer === 'PONG', detail: `PING answered ${answer} in ${elapsed(started)}` };
  } catch (error) {
    return { name: 'redis', ok: false, detail: `${config.redisUrl}: ${messageOf(error)}` };
  } finally {
    redis.disconnect();
  }
}

export async function checkDatabase(database: DatabaseHandle): Promise<CheckResult> {
  const started = Date.now();
  await database.ping();
  return { name: 'database', ok: true, detail: `${database.kind}: SELECT 1 in ${elapsed(started)}` };
}

/** Janus at JANUS_URL answers an `info` request; a managed one (started by the server) runs: `janus --help` prints its version (it has no --version). */
export async function checkJanus(config: AppConfig): Promise<CheckResult[]> {
  if (config.janusUrls.length === 0) {
    const version = await binaryVersion(config.janus.binary, ['--help']);
    return [{ name: 'janus', ok: version.ok, detail: `managed (${config.janus.binary}): ${version.detail}` }];
  }
  return Promise.all(
    config.janusUrls.map(async (url) => {
      try {
        const info = await janusInfo(url, config.janus.apiSecret);
        return { name: 'janus', ok: true, detail: `${url}: ${info}` };
      } catch (error) {
        return { name: 'janus', ok: false, detail: `${url}: ${messageOf(error)}` };
      }
    }),
  );
}

function janusInfo(url: string, apiSecret: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'janus-protocol', { handshakeTimeout: ANSWER_TIMEOUT_MS });
    const timer = setTimeout(() => finish(new Error('no answer to info')), ANSWER_TIMEOUT_MS);
    const finish = (outcome: Error | string) => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    socket.once('open', () =>
      socket.send(JSON.stringify({ janus: 'info', transaction: 'health', apisecret: apiSecret })),
    );
    socket.once('message', (data: Buffer) => {
      const answer = JSON.parse(data.toString()) as {
        janus?: string;
        version_string?: string;
        error?: { reason?: string };
      };
      if (answer.janus === 'server_info') finish(`Janus ${answer.version_string ?? '?'}`);
      else finish(new Error(answer.error?.reason ?? `answered ${answer.janus ?? 'nothing'}`));
    });
    socket.once('error', (error) => finish(error));
  });
}

/**
 * TURN: off; the managed coturn's binary runs (it starts with the server's first call, so it may not
 * listen yet); or each TURN_URL answers a STUN binding request (UDP) or accepts a connection (TCP, TLS).
 */
export async function checkTurn(config: AppConfig): Promise<CheckResult[]> {
  const turn = config.turn;
  if (turn.mode === 'off') return [{ name: 'turn', ok: true, detail: 'off (TURN=off): browsers get no relay' }];
  if (turn.mode === 'managed') {
    const version = await binaryVersion(turn.binary, ['--version']);
    const listening =
      version.ok &&
      (await tcpConnect('127.0.0.1', turn.port).then(
        () => true,
        () => false,
      ));
    const state = listening
      ? `listening on ${turn.port}`
      : `not listening on ${turn.port} yet (starts with the first call)`;
    return [
      {
        name: 'turn',
        ok: version.ok,
        detail: `managed (${turn.binary}): ${version.detail}${version.ok ? `; ${state}` : ''}`,
      },
    ];
  }
  return Promise.all(
    turnAddresses(config).map(async (url) => {
      const target = turnTarget(url);
      if (!target) return { name: 'turn', ok: false, detail: `${url}: not a turn:, turns: or stun: address` };
      const started = Date.now();
      try {
        if (target.transport === 'udp') await stunBinding(target.host, target.port);
        else await tcpConnect(target.host, target.port);
        return {
          name: 'turn',
          ok: true,
          detail: `${url}: ${target.transport} answered in ${elapsed(started)}`,
        };
      } catch (error) {
        return { name: 'turn', ok: false, detail: `${url}: ${messageOf(error)}` };
      }
    }),
  );
}

export function turnTarget(url: string): { host: string; port: number; transport: 'udp' | 'tcp' } | undefined {
  const match = /^(turns?|stun):(\[[^\]]+\]|[^:?]+)(?::(\d+))?(?:\?transport=(udp|tcp))?$/i.exec(url.trim());
  if (!match) return undefined;
  const secure = match[1]!.toLowerCase() === 'turns';
  const host = match[2]!.replace(/^\[|\]$/g, '');
  const port = match[3] ? Number(match[3]) : secure ? 5349 : 3478;
  const transport = secure || match[4]?.toLowerCase() === 'tcp' ? 'tcp' : 'udp';
  return { host, port, transport };
}

function stunBinding(host: string, port: number): Promise<void> {
  const request = Buffer.alloc(20);
  request.writeUInt16BE(0x0001, 0); // Binding request, no attributes.
  request.writeUInt32BE(0x2112a442, 4); // The magic cookie.
  randomBytes(12).copy(request, 8);
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('no answer to a STUN binding request')), ANSWER_TIMEOUT_MS);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve();
    };
    socket.on('message', (answer) => {
      if (answer.length >= 20 && answer.subarray(8, 20).equals(request.subarray(8, 20))) finish();
    });
    socket.on('error', (error) => finish(error));
    socket.send(request, port, host);
  });
}

function tcpConnect(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: ANSWER_TIMEOUT_MS });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error('connection timed out'));
    });
    socket.once('error', reject);
  });
}

export function binaryVersion(binary: string, args: string[]): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    execFile(binary, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      const firstLine =
        `${stdout}${stderr}`
          .split('\n')
          .find((line) => line.trim())
          ?.trim() ?? '';
      if (error) resolve({ ok: false, detail: `${binary} does not run: ${messageOf(error).split('\n')[0]}` });
      else resolve({ ok: true, detail: firstLine.slice(0, 120) });
    });
  });
}

export async function checkBinaries(): Promise<CheckResult[]> {
  const [ffmpeg, chromium] = await Promise.all([
    binaryVersion('ffmpeg', ['-version']),
    binaryVersion(CHROMIUM, ['--version']),
  ]);
  return [
    { name: 'ffmpeg', ...ffmpeg },
    { name: 'chromium', ...chromium },
  ];
}

/**
 * Broadcasts this machine can still start, by the composers' capacity rule (capacity.ts) with the
 * broadcasts running now counted (all of the installation's on a `local` composer), and by
 * BROADCAST_LIMIT_TOTAL.
 */
export async function checkComposerSlots(
  config: AppConfig,
  database: DatabaseHandle | undefined,
): Promise<CheckResult> {
  if (config.composer.mode === 'off') return { name: 'composer', ok: true, detail: 'off (COMPOSER_WORKER=off)' };
  // The embedded database in use by the server cannot be read here: the machine's capacity when idle.
  const rows = database
    ? await database.db
        .select({ quality: liveBroadcasts.quality })
        .from(liveBroadcasts)
        .where(inArray(liveBroadcasts.state, ['starting', 'live']))
    : [];
  const running = rows.map((row) => qualityNamed(row.quality)).filter((quality): quality is Quality => !!quality);
  const cores = config.composer.cores ?? availableParallelism();
  const free = freeSlots(
    running,
    cores,
    config.broadcastLimits.total === 0 ? Infinity : config.broadcastLimits.total - rows.length,
  );
  const ok = config.composer.mode === 'shared' || free > 0;
  const counted = database ? `${rows.length} running` : 'running broadcasts not counted';
  return {
    name: 'composer',
    ok,
    detail: `${free} free slot(s), ${counted}, ${cores} core(s) (${config.composer.mode})`,
  };
}

export function freeSlots(running: Quality[], cores: number, limit: number): number {
  const planned = [...running];
  let free = 0;
  while (free < Math.max(0, limit)) {
    const next = pickQuality(planned, cores);
    if (!next) break;
    planned.push(next);
    free += 1;
  }
  return free;
}

export async function checkDisk(config: AppConfig): Promise<CheckResult> {
  try {
    const stats = await statfs(config.dataDir);
    const freeBytes = stats.bavail * stats.bsize;
    const detail = `${(freeBytes / 1024 ** 3).toFixed(1)} GiB free under ${config.dataDir}`;
    return { name: 'disk', ok: freeBytes >= MIN_FREE_DISK_BYTES, detail };
  } catch (error) {
    return { name: 'disk', ok: false, detail: `${config.dataDir}: ${messageOf(error)}` };
  }
}

export function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}
