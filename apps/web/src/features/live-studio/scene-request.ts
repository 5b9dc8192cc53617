import {
  BROADCAST_SCENES,
  formInt,
  SetBroadcastOverlayInputSchema,
  STREAMING_LIMITS,
  type BroadcastOverlay,
  type BroadcastScene,
} from '@meetcast/contracts';
import { z } from 'zod';

/** The longest countdown the host may type, in minutes (the server refuses more than a day). */
export const MAX_COUNTDOWN_MINUTES = STREAMING_LIMITS.sceneCountdownSeconds / 60;

/**
 * The scene form (ADR 042): the scene, its message (the contract's field) and a countdown typed in
 * minutes from now, empty for none.
 */
export const SceneFormSchema = z.object({
  scene: z.enum(BROADCAST_SCENES),
  scene_message: SetBroadcastOverlayInputSchema.shape.scene_message.unwrap(),
  countdown_minutes: z.union([z.literal(''), formInt(z.number().min(1).max(MAX_COUNTDOWN_MINUTES))]),
});
export type SceneFormInput = z.input<typeof SceneFormSchema>;
/** The form's valid output. */
export type SceneFormValues = z.output<typeof SceneFormSchema>;

/** What a start or an overlay change sends: every scene field, so an empty one clears it. */
export interface SceneRequest {
  scene: BroadcastScene;
  scene_message: string;
  /** Epoch seconds; 0 clears the countdown. */
  scene_countdown_to: number;
}

export function toSceneRequest(values: SceneFormValues, nowMs: number): SceneRequest {
  return {
    scene: values.scene,
    scene_message: values.scene_message,
    scene_countdown_to: values.countdown_minutes === '' ? 0 : Math.floor(nowMs / 1000) + values.countdown_minutes * 60,
  };
}

/** The form's values for the scene on air: its countdown as the whole minutes still to go (at least 1). */
export function sceneFormValues(
  overlay: Pick<BroadcastOverlay, 'scene' | 'scene_message' | 'scene_countdown_to'> | undefined,
  nowMs: number,
): SceneFormInput {
  const countdownTo = overlay?.scene_countdown_to ?? null;
  const minutesLeft = countdownTo === null ? 0 : Math.ceil((countdownTo * 1000 - nowMs) / 60_000);
  return {
    scene: overlay?.scene ?? 'live',
    scene_message: overlay?.scene_message ?? '',
    countdown_minutes: minutesLeft > 0 ? String(minutesLeft) : '',
  };
}
