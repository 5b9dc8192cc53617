/**
 * The composer's parts one by one (`@meetcast/server/composer-parts`), for the bench that measures the
 * encoder alone: the virtual screen, the layout browser and the encoder, without the server around
 * them (ADR 029).
 */
export { QUALITIES } from './streaming/composer/capacity.js';
export { Encoder } from './streaming/composer/encoder.js';
export { LayoutBrowser } from './streaming/composer/layout-browser.js';
export { claimDisplayNumber, VirtualScreen } from './streaming/composer/virtual-screen.js';
