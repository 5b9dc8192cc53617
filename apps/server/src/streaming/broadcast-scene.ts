import { STREAMING_LIMITS, type BroadcastScene } from '@meetcast/contracts';
import { badRequest } from '../http/app-error.js';

/** The scene fields as a start or an overlay change sends them; each one not sent stays. */
export interface SceneRequest {
  scene?: BroadcastScene;
  message?: string;
  /** Epoch seconds; 0 clears the countdown. */
  countdownTo?: number;
}

export interface SceneColumns {
  overlayScene?: BroadcastScene;
  overlaySceneMessage?: string | null;
  overlaySceneCountdownTo?: Date | null;
}

/**
 * The `live_broadcasts` columns a scene request writes (ADR 042): undefined stays, null clears. A
 * countdown must end between now and a day from now: one already over would show "Starting now"
 * for ever, one further off is a typing slip (a date instead of minutes).
 */
export function sceneColumns(request: SceneRequest, nowMs: number): SceneColumns {
  const { countdownTo } = request;
  if (countdownTo !== undefined && countdownTo !== 0) {
    const nowSeconds = Math.floor(nowMs / 1000);
    if (countdownTo < nowSeconds) throw badRequest('broadcasts.countdown_past');
    if (countdownTo > nowSeconds + STREAMING_LIMITS.sceneCountdownSeconds) {
      throw badRequest('broadcasts.countdown_too_far');
    }
  }
  return {
    overlayScene: request.scene,
    overlaySceneMessage: request.message === undefined ? undefined : request.message.trim() || null,
    overlaySceneCountdownTo:
      countdownTo === undefined ? undefined : countdownTo === 0 ? null : new Date(countdownTo * 1000),
  };
}
