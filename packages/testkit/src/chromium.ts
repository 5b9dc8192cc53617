import { CHROMIUM_DEFAULT_PATH, CHROMIUM_FLAGS } from '@meetcast/contracts/chromium-flags';

/**
 * How every test and bench launches Debian's Chromium: the composer's flags for a closed network,
 * plus a fake camera and microphone that need no permission prompt.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? CHROMIUM_DEFAULT_PATH;

export const CHROMIUM_ARGS = [
  ...CHROMIUM_FLAGS,
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];
