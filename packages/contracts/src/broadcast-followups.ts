import { z } from 'zod';
import { nestedData } from './envelope.js';
import { formInt } from './fields.js';
import { BROADCAST_LAYOUTS, BroadcastMeetInputSchema, type BroadcastScene } from './streaming.js';

/**
 * "Notify me" on a channel's next broadcast (ADR 048): the signed-in viewer is e-mailed and notified
 * in the app once, when it goes live. Only about the caller: nobody learns who else asked.
 */
export const BroadcastReminderSchema = z.object({
  /** The caller asked to be told. */
  is_set: z.boolean(),
  /** They were told already (it went live). */
  is_sent: z.boolean(),
});
export type BroadcastReminder = z.infer<typeof BroadcastReminderSchema>;
export const BroadcastReminderBodySchema = nestedData(BroadcastReminderSchema);
export const SetBroadcastReminderInputSchema = BroadcastMeetInputSchema.extend({
  /** 1 asks to be told when it goes live, 0 takes that back. */
  on: formInt(z.number().int().min(0).max(1)),
});

/**
 * A scene change (ADR 042) as a chapter: one kind per scene, so a chapter stays `{ kind, layout,
 * offset }` and needs no further field. `scene_live` is the show itself (back from a holding screen).
 */
export const BROADCAST_SCENE_CHAPTER_KINDS = [
  'scene_live',
  'scene_starting_soon',
  'scene_be_right_back',
  'scene_ending',
] as const satisfies readonly `scene_${BroadcastScene}`[];
export type BroadcastSceneChapterKind = (typeof BROADCAST_SCENE_CHAPTER_KINDS)[number];
export const sceneChapterKind = (scene: BroadcastScene): BroadcastSceneChapterKind => `scene_${scene}`;

export const BROADCAST_CHAPTER_KINDS = [
  'layout',
  'screen_share_start',
  'screen_share_stop',
  ...BROADCAST_SCENE_CHAPTER_KINDS,
] as const;
export type BroadcastChapterKind = (typeof BROADCAST_CHAPTER_KINDS)[number];

/** A point of a replay worth jumping to: the layout or the scene changed, or a screen share started or stopped. */
export const BroadcastChapterSchema = z.object({
  kind: z.enum(BROADCAST_CHAPTER_KINDS),
  /** For a `layout` chapter: the layout chosen. */
  layout: z.enum(BROADCAST_LAYOUTS).nullable(),
  /** Seconds from the start of the recording. */
  offset: z.number().nonnegative(),
});
export type BroadcastChapter = z.infer<typeof BroadcastChapterSchema>;
