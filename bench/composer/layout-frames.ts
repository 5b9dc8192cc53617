/**
 * What bench/layout-change.ts reads from the received broadcast: which layout a decoded frame shows.
 * Each light participant sends one solid colour (makeColourClip), so a frame's layout is told by how
 * much of the picture each colour covers (its "signature"): in a 2×2 grid each tile is about a fifth
 * of the frame, in a spotlight the featured one is far larger and the strip's far smaller. A frame
 * has arrived "moved" once it left the old layout's signature, and "new" once it is at the new one's.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { FRAME } from './timestamp-code.js';

/**
 * The colours the bench's participants send, and the clock's magenta (the featured speaker: it
 * beeps). Magenta is read so that it is never taken for red or blue, but left out of the signature:
 * the clock flashes white every other second, which would look like a change.
 */
export const PALETTE = {
  red: [255, 0, 0],
  green: [0, 255, 0],
  blue: [0, 0, 255],
  magenta: [255, 0, 255],
} as const;
export type PaletteColour = keyof typeof PALETTE;
const COLOURS = Object.values(PALETTE);
const SIGNATURE_COLOURS = 3;
/** Sum of the channels' distances within which a decoded pixel counts as a palette colour (codec drift). */
const NEAR = 150;
/** Every STEP-th pixel of every STEP-th row is read: 120×68 samples of the 480×270 decode. */
const STEP = 4;

/** A solid-colour clip (VP8, 640×360, a keyframe a second, silence) for a light participant to loop. */
export function makeColourClip(folder: string, colour: PaletteColour): string {
  const [r, g, b] = PALETTE[colour];
  const hex = [r, g, b].map((channel) => channel.toString(16).padStart(2, '0')).join('');
  const clip = join(folder, `colour-${colour}.webm`);
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `color=c=0x${hex}:size=640x360:rate=30`],
    ...['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo'],
    ...['-t', '10', '-c:v', 'libvpx', '-b:v', '300k', '-g', '30', '-deadline', 'realtime', '-cpu-used', '8'],
    ...['-c:a', 'libopus', '-b:a', '32k', clip],
  ]);
  return clip;
}

/** The share of the frame (0–1) red, green and blue cover. */
export function signatureOf(frame: Buffer): number[] {
  const counts = COLOURS.map(() => 0);
  let samples = 0;
  for (let y = STEP / 2; y < FRAME.height; y += STEP) {
    for (let x = STEP / 2; x < FRAME.width; x += STEP) {
      const at = (y * FRAME.width + x) * 3;
      samples += 1;
      for (const [index, [r, g, b]] of COLOURS.entries()) {
        if (Math.abs(frame[at]! - r) + Math.abs(frame[at + 1]! - g) + Math.abs(frame[at + 2]! - b) < NEAR) {
          counts[index]! += 1;
          break;
        }
      }
    }
  }
  return counts.slice(0, SIGNATURE_COLOURS).map((count) => count / samples);
}

export const distance = (a: number[], b: number[]) =>
  a.reduce((sum, value, index) => sum + Math.abs(value - b[index]!), 0);

export const meanSignature = (signatures: number[][]) =>
  COLOURS.slice(0, SIGNATURE_COLOURS).map(
    (_, index) => signatures.reduce((sum, s) => sum + s[index]!, 0) / Math.max(1, signatures.length),
  );

export interface StampedSignature {
  /** Wall time (Date.now()) the decoded frame came out of the receiver's decoder. */
  at: number;
  signature: number[];
}

export interface ChangeTimes {
  /** Set call → first frame that left the old picture (the move started), ms. */
  movedMs: number;
  /** Set call → first frame at the new picture (the change complete), ms. */
  newMs: number;
  /** How far apart the two layouts' signatures are (a check that the change is visible at all). */
  separation: number;
}

/**
 * When the change started at `setAt` reached the receiver: the old picture is the mean signature of
 * the second before the call, the new one that of frames `settledAfterMs` and later. Answers why not
 * when the two are not told apart or no frame reached the new picture.
 */
export function changeTimes(
  frames: StampedSignature[],
  setAt: number,
  settledAfterMs: number,
): ChangeTimes | { failure: string } {
  const before = frames.filter((frame) => frame.at > setAt - 1000 && frame.at <= setAt).map((f) => f.signature);
  const settled = frames.filter((frame) => frame.at >= setAt + settledAfterMs).map((f) => f.signature);
  if (before.length === 0 || settled.length === 0)
    return {
      failure: `${before.length} frames decoded in the second before the call, ${settled.length} settled after it`,
    };
  const oldPicture = meanSignature(before);
  const newPicture = meanSignature(settled);
  const separation = distance(oldPicture, newPicture);
  const shares = (signature: number[]) => signature.map((share) => share.toFixed(2)).join('/');
  if (separation < 0.2)
    return {
      failure: `the old and new pictures look alike (red/green/blue shares ${shares(oldPicture)} → ${shares(newPicture)})`,
    };
  const after = frames.filter((frame) => frame.at > setAt);
  const moved = after.find((frame) => distance(frame.signature, oldPicture) > 0.25 * separation);
  const arrived = after.find((frame) => distance(frame.signature, newPicture) < 0.1 * separation);
  if (!moved || !arrived) return { failure: 'no frame reached the new picture' };
  return { movedMs: moved.at - setAt, newMs: arrived.at - setAt, separation };
}
