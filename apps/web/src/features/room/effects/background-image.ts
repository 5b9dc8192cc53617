import { storage } from '../media/device-memory';

/** The user's own background picture, kept in this browser only (never uploaded to the server). */
const IMAGE_KEY = 'meetcast.background-image';

/** Larger files are refused before decoding: a phone photo is a few MB, a camera's raw file is not a picture here. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const ACCEPTED_IMAGE_TYPES = ACCEPTED_TYPES.join(',');

/** Kept at the camera's largest size (720p): enough for the frame, and small enough for local storage. */
const KEPT_WIDTH = 1280;
const KEPT_HEIGHT = 720;

export type BackgroundImageProblem = 'invalid' | 'not_saved';

export class BackgroundImageError extends Error {
  constructor(readonly problem: BackgroundImageProblem) {
    super(`background image: ${problem}`);
  }
}

/** Draws `image` so that it covers the whole `width` × `height` area, centred, cropping what overflows. */
export function drawCovering(
  context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D,
  image: ImageBitmap | OffscreenCanvas | HTMLCanvasElement,
  width: number,
  height: number,
) {
  const scale = Math.max(width / image.width, height / image.height);
  const drawnWidth = image.width * scale;
  const drawnHeight = image.height * scale;
  context.drawImage(image, (width - drawnWidth) / 2, (height - drawnHeight) / 2, drawnWidth, drawnHeight);
}

/**
 * Checks, decodes and shrinks a chosen file, keeps it (as a JPEG in local storage) and returns it
 * decoded for the effect. Throws BackgroundImageError with what to tell the user.
 */
export async function keepBackgroundImage(file: File): Promise<ImageBitmap> {
  if (!ACCEPTED_TYPES.includes(file.type) || file.size === 0 || file.size > MAX_IMAGE_BYTES) {
    throw new BackgroundImageError('invalid');
  }
  const decoded = await createImageBitmap(file).catch(() => {
    throw new BackgroundImageError('invalid');
  });
  const canvas = document.createElement('canvas');
  canvas.width = KEPT_WIDTH;
  canvas.height = KEPT_HEIGHT;
  drawCovering(canvas.getContext('2d')!, decoded, KEPT_WIDTH, KEPT_HEIGHT);
  decoded.close();
  const dataUrl = canvas.toDataURL('image/jpeg', 0.85);
  try {
    const store = storage();
    if (!store) throw new Error('no local storage');
    store.setItem(IMAGE_KEY, dataUrl);
  } catch {
    throw new BackgroundImageError('not_saved');
  }
  return createImageBitmap(canvas);
}

/** The kept picture, decoded; undefined when there is none (or it no longer decodes). */
export async function keptBackgroundImage(): Promise<ImageBitmap | undefined> {
  const dataUrl = storage()?.getItem(IMAGE_KEY);
  const base64 = dataUrl?.startsWith('data:image/jpeg;base64,') ? dataUrl.slice(dataUrl.indexOf(',') + 1) : undefined;
  if (!base64) return undefined;
  try {
    // Decoded by hand rather than fetched: the Content-Security-Policy allows no data: addresses.
    const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
    return await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
  } catch {
    return undefined;
  }
}
