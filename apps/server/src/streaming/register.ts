import type { AddressInfo } from 'node:net';
import { closeWithin } from '../platform/close-within.js';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { recordScreenShare } from './broadcast-chapters.js';
import { registerBroadcastPlanRoutes } from './broadcast-plan-routes.js';
import { registerBroadcastRoutes } from './broadcast-routes.js';
import { registerBrandKitRoutes } from './brand-kit-routes.js';
import { BroadcastSignals } from './broadcast-signals.js';
import type { ComposerCapacity } from './broadcast-limits.js';
import type { Drivers } from './composer/broadcast-session.js';
import { ComposerWorker } from './composer/composer-worker.js';
import { startDueBroadcasts } from './broadcast-plans.js';
import { stopBroadcastsOf } from './broadcast-service.js';
import { BROADCAST_LIMITS_CHECK_MS, endOverdueBroadcasts } from './broadcast-limits.js';
import { deleteOrphanRecordings, registerRecordingFiles } from './recording-files.js';
import { registerViewerRoutes } from './viewers/viewer-routes.js';
import { PlatformChatHub } from './platform-chat/platform-chat-hub.js';
import { registerPlatformChatRoutes } from './platform-chat/platform-chat-routes.js';
import { runPeriodically, type PeriodicJob, type PeriodicOptions } from '../platform/periodic.js';

const ORPHAN_SWEEP_MS = 60_000;
/** How late a planned channel broadcast may start after its time (or after its host arrived). */
const PLANNED_START_CHECK_MS = 10_000;

/**
 * Live broadcasts: their calls, their recordings, and (unless COMPOSER_WORKER=off) a composer
 * worker in this process, started once the server listens so it can open the layout page. Answers
 * what a channel page plays (`viewerState`), which the page's HTML also carries.
 */
export function registerBroadcasts(app: FastifyInstance, context: AppContext, drivers: Drivers) {
  const signals = new BroadcastSignals(context);
  const viewers = registerViewerRoutes(app, context, signals);
  const { mode, cores, spares } = context.config.composer;
  const worker = mode === 'off' ? undefined : new ComposerWorker(context, { drivers, cores, spares });
  // A worker hears of a new broadcast, a change or a stop at once, from any process (ADR 020).
  signals.on((signal) => {
    if (signal.kind === 'nudge') worker?.nudge();
  });
  signals.start();
  app.addHook('onClose', () => signals.close());
  const capacity: ComposerCapacity = {
    isLocalOnly: mode === 'local',
    hasRoom: () => Boolean(worker?.quality()),
    nudge: () => signals.send({ kind: 'nudge' }),
    nextChange: (broadcastId, ms) => signals.nextChange(broadcastId, ms),
  };
  // However a meeting ended (rooms/end-meetings.ts), its broadcast stops with it.
  context.events.on('meeting.ended', ({ meetingIds }) => stopBroadcastsOf(context, capacity, meetingIds));
  // A screen share on a broadcast's stage is a chapter of its replay (ADR 048).
  context.events.on('room.screen-share', (event) => recordScreenShare(context, event));
  registerBroadcastRoutes(app, context, capacity);
  registerBroadcastPlanRoutes(app, context);
  registerBrandKitRoutes(app, context);
  registerPlatformChatRoutes(app, context);
  registerRecordingFiles(app, context);
  sweepOrphanRecordings(app, context);
  startPlannedBroadcasts(app, context, capacity);
  endOverdueBroadcastsRegularly(app, context, capacity);
  if (worker) {
    startWorkerOnListen(app, context, worker);
    readPlatformChat(app, context, worker.id);
  }
  return { ...viewers, composerId: worker?.id };
}

function startWorkerOnListen(app: FastifyInstance, context: AppContext, worker: ComposerWorker) {
  const { pageUrl } = context.config.composer;
  app.addHook('onListen', () => {
    const address = app.server.address() as AddressInfo | null;
    const isAnyAddress = !address || ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(address.address);
    const host = isAnyAddress ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const base = pageUrl ?? (address ? `http://${host}:${address.port}` : undefined);
    if (base) worker.start(base.replace(/\/$/, ''));
  });
  app.addHook('onClose', () => closeWithin(app.log, 'composer worker', () => worker.close()));
}

/** The platform chat of the broadcasts this process's worker owns (ADR 040). */
function readPlatformChat(app: FastifyInstance, context: AppContext, ownerId: string) {
  const hub = new PlatformChatHub(context, ownerId);
  app.addHook('onListen', () => hub.start());
  app.addHook('onClose', () => closeWithin(app.log, 'platform chat', () => hub.close()));
}

/** Files of deleted meetings' recordings are removed within a minute (they stop being served at once). */
function sweepOrphanRecordings(app: FastifyInstance, context: AppContext) {
  runOnListen(app, () => deleteOrphanRecordings(context.db, context.config.dataDir), {
    everyMs: ORPHAN_SWEEP_MS,
    runAtStart: true,
    onError: (error) => context.log.warn({ err: error }, 'could not remove the recordings of deleted meetings'),
  });
}

/** Channel broadcasts scheduled with a go-live plan start by themselves once due and their host is in. */
function startPlannedBroadcasts(app: FastifyInstance, context: AppContext, capacity: ComposerCapacity) {
  runOnListen(app, () => startDueBroadcasts(context, capacity), {
    everyMs: PLANNED_START_CHECK_MS,
    onError: (error) => context.log.warn({ err: error }, 'could not start the planned broadcasts'),
  });
}

/** Every process ends the broadcasts that ran too long or film an empty meeting (idempotent). */
function endOverdueBroadcastsRegularly(app: FastifyInstance, context: AppContext, capacity: ComposerCapacity) {
  runOnListen(app, () => endOverdueBroadcasts(context, capacity), {
    everyMs: BROADCAST_LIMITS_CHECK_MS,
    onError: (error) => context.log.warn({ err: error }, 'could not end the overdue broadcasts'),
  });
}

/** A periodic job that runs while the server listens and is waited for when it closes. */
function runOnListen(
  app: FastifyInstance,
  run: () => Promise<unknown>,
  { runAtStart = false, ...options }: PeriodicOptions & { runAtStart?: boolean },
) {
  let job: PeriodicJob | undefined;
  app.addHook('onListen', () => {
    job = runPeriodically(run, options);
    if (runAtStart) void job.runNow();
  });
  app.addHook('onClose', async () => job?.stop());
}
