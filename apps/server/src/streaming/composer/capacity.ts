import { availableParallelism } from 'node:os';

/**
 * The screen a composer draws on. The layout page always lays out 1280×720 CSS pixels; a 1080p
 * stage shows them at 1.5 device pixels each (`--force-device-scale-factor`), so text and pictures
 * are drawn sharp at 1920×1080 instead of being scaled up from 720p.
 */
export interface StageScreen {
  width: number;
  height: number;
  scale: number;
}

export const HD_SCREEN: StageScreen = { width: 1280, height: 720, scale: 1 };
export const FULL_HD_SCREEN: StageScreen = { width: 1920, height: 1080, scale: 1.5 };

/** What one composer encodes, and the screen it needs (a lighter encode is scaled down from it). */
export interface Quality {
  name: '1080p30' | '720p30' | '720p24' | '540p30';
  width: number;
  height: number;
  fps: number;
  videoKbps: number;
  /**
   * Cores it takes, composer and encoder together, with four tiles: measured 1.20, 1.17 and 1.08 on
   * a two-core machine (ADR 014, 2026-11-28). The layout's Chromium takes about half whatever the
   * encode, so a lighter encode saves little.
   */
  cores: number;
  screen: StageScreen;
}

/** Best first: a busy machine gives new broadcasts a lighter encode before it refuses one. */
export const QUALITIES: Quality[] = [
  { name: '720p30', width: 1280, height: 720, fps: 30, videoKbps: 3000, cores: 1.2, screen: HD_SCREEN },
  { name: '720p24', width: 1280, height: 720, fps: 24, videoKbps: 2500, cores: 1.15, screen: HD_SCREEN },
  { name: '540p30', width: 960, height: 540, fps: 30, videoKbps: 2000, cores: 1.1, screen: HD_SCREEN },
];

/**
 * Only when the host asks for it (start-broadcast's `quality`) and the machine can afford it (ADR 050):
 * it takes a third more cores than 720p30 and more upload than many creators have. Its cost is the
 * composer bench's at BENCH_QUALITY=1080p30 (0.98 core measured against 720p30's 0.74, 2026-12-05) with
 * 720p30's margin (1.2 for 0.74). It steps down to 720p30 on the same screen.
 */
export const FULL_HD: Quality = {
  name: '1080p30',
  width: 1920,
  height: 1080,
  fps: 30,
  videoKbps: 4500,
  cores: 1.6,
  screen: FULL_HD_SCREEN,
};

/** Left to the web server, Janus and the meeting's own traffic on the same machine. */
const RESERVED_CORES = 0.5;

/**
 * How much composing this machine can afford. `cores` comes from COMPOSER_CORES, else from the
 * machine; the running broadcasts' qualities are what is already spent.
 */
export function pickQuality(
  running: Quality[],
  cores = availableParallelism(),
  asked?: Quality,
): Quality | undefined {
  const free = freeCores(running, cores);
  const ladder = asked?.name === FULL_HD.name ? [FULL_HD, ...QUALITIES] : QUALITIES;
  return ladder.find((quality) => quality.cores <= free + 1e-9);
}

/** Cores left for composing once the reserve and the running broadcasts are counted. */
function freeCores(running: Quality[], cores: number) {
  return cores - RESERVED_CORES - running.reduce((sum, quality) => sum + quality.cores, 0);
}

/**
 * Whether a spare stage may be launched beside the broadcasts running here. Launching one (Xvfb,
 * PulseAudio, Chromium loading the app) takes about a core for a few seconds: on two cores that
 * starved a running composer's audio thread, and the lip-synced video with it, by 2 s (ADR 014).
 * A machine with a whole core left after its broadcasts launches at once; others when they are idle.
 */
export function maySpareLaunchBeside(running: Quality[], cores = availableParallelism()): boolean {
  return running.length === 0 || freeCores(running, cores) >= SPARE_LAUNCH_CORES + QUALITIES[0]!.cores;
}

/** What launching a spare stage takes for its first seconds. */
const SPARE_LAUNCH_CORES = 1;

export function qualityNamed(name: string | null | undefined): Quality | undefined {
  return [FULL_HD, ...QUALITIES].find((quality) => quality.name === name);
}

/**
 * The next lighter quality (1080p30 → 720p30 → 720p24 → 540p30), or undefined at the lightest. It
 * keeps the screen it steps down from: the encoder scales it.
 */
export function lighterThan(quality: Quality): Quality | undefined {
  const ladder = [FULL_HD, ...QUALITIES];
  const lighter = ladder[ladder.findIndex((candidate) => candidate.name === quality.name) + 1];
  return lighter && { ...lighter, screen: quality.screen };
}
