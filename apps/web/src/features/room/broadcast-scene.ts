import type { BroadcastOverlay, BroadcastScene } from '@meetcast/contracts';

/** What the broadcast picture shows: a holding screen, or the people (`null`). */
export interface SceneOnAir {
  scene: Exclude<BroadcastScene, 'live'>;
  message: string | null;
  countdownTo: number | null;
}

/**
 * Which scene the composer draws (ADR 042). The host's holding screen when one is chosen; on `live`,
 * a plain "Starting soon" (no message, no countdown) while the picture would be empty tiles: nobody
 * in the room yet, or cameras announced but no frame played yet (for a while: a camera announced but never
 * received must not hold the stream on a card for ever; then the people show, with their initials).
 * Once a frame has played the people stay, whatever happens to the cameras after.
 */
export function sceneOnAir(
  overlay: Pick<BroadcastOverlay, 'scene' | 'scene_message' | 'scene_countdown_to'>,
  picture: { hasFramePlayed: boolean; peopleCount: number; camerasOn: number; hasWaitedLongEnough: boolean },
): SceneOnAir | null {
  if (overlay.scene !== 'live') {
    return { scene: overlay.scene, message: overlay.scene_message, countdownTo: overlay.scene_countdown_to };
  }
  if (picture.hasFramePlayed) return null;
  const isEmpty = picture.peopleCount === 0;
  const isWaitingForCamera = picture.camerasOn > 0 && !picture.hasWaitedLongEnough;
  return isEmpty || isWaitingForCamera ? { scene: 'starting_soon', message: null, countdownTo: null } : null;
}

/** Whole seconds left until `countdownTo` (epoch seconds), never below 0. */
export function secondsLeft(countdownTo: number, nowMs: number): number {
  return Math.max(0, Math.ceil(countdownTo - nowMs / 1000));
}

/** A countdown as a clock: `04:59`, and `1:04:59` from an hour on (a countdown may run up to a day). */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${pad(minutes)}:${pad(rest)}`;
}
