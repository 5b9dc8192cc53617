/**
 * How Meetcast runs Debian's Chromium (never a downloaded browser), shared by the composer's layout
 * browser and the test kit's browsers so that the two cannot drift apart.
 */

/** Where Debian's package puts Chromium; CHROMIUM_PATH overrides it. */
export const CHROMIUM_DEFAULT_PATH = '/usr/bin/chromium';

/** Flags for a machine without a GPU on a closed network: nothing is fetched, synced or updated. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;
