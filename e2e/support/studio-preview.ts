import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

const LOCALES = join(import.meta.dirname, '../../apps/web/public/locales');

/** A text of the web app in one language: `key` is a dotted path in `{namespace}.json`. */
export function localeText(language: string, namespace: string, key: string): string {
  let node: unknown = JSON.parse(readFileSync(join(LOCALES, language, `${namespace}.json`), 'utf8'));
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'string') throw new Error(`no text ${language}/${namespace}:${key}`);
  return node;
}

/** The studio's preview <video> in the host's Live panel, opened from the room's toolbar (in `language`). */
export async function openStudioPreview(page: Page, language = 'en'): Promise<Locator> {
  const text = (namespace: string, key: string) => localeText(language, namespace, key);
  await page.getByRole('button', { name: text('room', 'controls.live_on_air') }).click();
  const panel = page.getByRole('region', { name: text('streaming', 'live.panel_title'), exact: true });
  const video = panel.getByLabel(text('streaming', 'preview.video_label'));
  await expect(video).toBeVisible();
  // Playing the broadcast's picture: decoded frames, and time passing.
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth > 0 && element.currentTime > 0.5), {
      timeout: 30_000,
    })
    .toBe(true);
  return video;
}

/** The frame the preview shows now, scaled to `width`×`height`, as RGB bytes (a canvas in the page). */
export async function previewFrame(video: Locator, width: number, height: number): Promise<Buffer> {
  const base64 = await video.evaluate(
    (element: HTMLVideoElement, size) => {
      const canvas = document.createElement('canvas');
      canvas.width = size.width;
      canvas.height = size.height;
      const drawing = canvas.getContext('2d')!;
      drawing.drawImage(element, 0, 0, size.width, size.height);
      const rgba = drawing.getImageData(0, 0, size.width, size.height).data;
      let binary = '';
      for (let at = 0; at < rgba.length; at += 4) {
        binary += String.fromCharCode(rgba[at]!, rgba[at + 1]!, rgba[at + 2]!);
      }
      return btoa(binary);
    },
    { width, height },
  );
  return Buffer.from(base64, 'base64');
}

/** The mean of each colour channel of an RGB frame. */
export function meanColour(rgb: Buffer): [number, number, number] {
  const sums = [0, 0, 0];
  for (let at = 0; at + 2 < rgb.length; at += 3) {
    for (let channel = 0; channel < 3; channel += 1) sums[channel]! += rgb[at + channel]!;
  }
  const pixels = rgb.length / 3;
  return [sums[0]! / pixels, sums[1]! / pixels, sums[2]! / pixels];
}
