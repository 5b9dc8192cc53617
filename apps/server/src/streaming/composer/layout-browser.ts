import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_DEFAULT_PATH, CHROMIUM_FLAGS } from '@meetcast/contracts/chromium-flags';
import type { BrowserContext, Page } from 'playwright-core';
import { boundLauncherScript } from '../../platform/bound-children.js';
import { SOUND_BUFFER_MS, type VirtualScreen } from './virtual-screen.js';

/** The layout page without a meeting: loaded, waiting to be told which meeting to draw. */
const STANDBY_PATH = '/broadcast-layout';
/** Waits between launches of a browser that died under a running stage, the last one repeated. */
const RELAUNCH_WAITS_MS = [0, 1000, 2000, 5000];
/** The profile's single-instance locks: a browser killed outright leaves them naming its dead pid. */
const PROFILE_LOCKS = ['SingletonLock', 'SingletonSocket', 'SingletonCookie'];

export const CHROMIUM = process.env.CHROMIUM_PATH ?? CHROMIUM_DEFAULT_PATH;

/**
 * Chromium in a window filling the virtual screen, showing the meeting's broadcast layout and
 * playing its sound into the null sink. Launched through Playwright: hand-launched kiosk windows
 * played at a fraction of real time on Xvfb, and Playwright tells us when the page
 * crashes so it can be opened again.
 */
export class LayoutBrowser {
  private browser: BrowserContext | undefined;
  private page: Page | undefined;
  private isClosed = false;
  /** Set while the page waits on the standby page of this address. */
  private standbyBaseUrl: string | undefined;
  /** What the page shows: a browser that dies is started again onto it. */
  private shown: { url: string } | { standbyBaseUrl: string } | undefined;

  constructor(
    /** The composer's folder; the browser profile lives in it, which is how leftovers are found. */
    private readonly folder: string,
    private readonly screen: VirtualScreen,
    private readonly log: (message: string) => void,
  ) {}

  async start() {
    const { width, height, scale = 1 } = this.screen.size;
    // Loaded on first use: only composer machines need it, and it costs every server start a second.
    const { chromium } = await import('playwright-core');
    // Playwright takes a program, not a command: a script in the composer's folder starts Chromium
    // bound to this process, so that a killed server leaves no browser (nor its renderers) behind.
    const launcher = join(this.folder, 'chromium');
    writeFileSync(launcher, boundLauncherScript(CHROMIUM));
    // Its owner alone: DATA_DIR holds nothing other users may read or run.
    chmodSync(launcher, 0o700);
    const profile = join(this.folder, 'profile');
    for (const lock of PROFILE_LOCKS) rmSync(join(profile, lock), { force: true });
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: launcher,
      headless: false,
      env: {
        ...process.env,
        DISPLAY: this.screen.display,
        XAUTHORITY: this.screen.xauthority,
        PULSE_SERVER: this.screen.pulseServer,
        // With its own ~10 ms, each missed turn delayed the meeting's sound for good (it pulled
        // 67-94 % of real time) and the lip-synced video with it; 100 ms rides over them (94-100 %).
        PULSE_LATENCY_MSEC: String(SOUND_BUFFER_MS),
      },
      args: [
        ...CHROMIUM_FLAGS,
        '--disable-dev-shm-usage',
        '--autoplay-policy=no-user-gesture-required',
        '--disable-background-timer-throttling',
        '--disable-renderer-backgrounding',
        '--disable-backgrounding-occluded-windows',
        '--disable-features=Translate,MediaRouter',
        '--hide-scrollbars',
        '--kiosk',
        // The window's size is in CSS pixels: the page always lays out 1280×720 (capacity.ts).
        `--window-size=${Math.round(width / scale)},${Math.round(height / scale)}`,
        `--force-device-scale-factor=${scale}`,
        '--window-position=0,0',
      ],
      viewport: null,
    });
    this.browser = browser;
    // Chromium killed or crashed as a whole (not just the page): the stage's screen would film an empty
    // desktop for the rest of the broadcast. It is started again onto what it showed.
    browser.on('close', () => void this.relaunch(browser));
    if (this.isClosed) {
      // Stopped while Chromium was coming up: it must not outlive its stage.
      await this.browser.close().catch(() => undefined);
      return;
    }
    const page = this.browser.pages()[0] ?? (await this.browser.newPage());
    this.page = page;
    page.on('crash', () => {
      this.log('layout page crashed; opening it again');
      if (!this.isClosed) void page.reload().catch(() => undefined);
    });
  }

  /**
   * A spare waits on the layout's standby page: the web app and the layout's code are loaded and
   * run, so opening a meeting later is a navigation inside the page (about a second less on the
   * path to the first bytes on two busy cores than loading the app then). See ADR 014.
   */
  async standby(pageBaseUrl: string) {
    try {
      await this.page?.goto(`${pageBaseUrl}${STANDBY_PATH}`, { waitUntil: 'domcontentloaded', timeout: 20_000 });
      await this.page?.waitForSelector('[data-broadcast-standby]', { timeout: 20_000, state: 'attached' });
      this.standbyBaseUrl = pageBaseUrl;
      this.shown = { standbyBaseUrl: pageBaseUrl };
    } catch (error) {
      // Not fatal: the meeting's layout is then loaded the usual way.
      this.log(`layout standby not reached: ${String(error)}`);
    }
  }

  /** Opens the meeting's layout (the browser may have been started long before, as a spare). */
  async open(url: string) {
    this.shown = { url };
    const base = this.standbyBaseUrl;
    this.standbyBaseUrl = undefined;
    if (base && url.startsWith(`${base}/`)) {
      const isOpened = await this.page
        ?.evaluate((path) => {
          const open = (globalThis as { __meetcastOpenLayout?: (to: string) => void }).__meetcastOpenLayout;
          open?.(path);
          return Boolean(open);
        }, url.slice(base.length))
        .catch(() => false);
      if (isOpened) return;
    }
    await this.page?.goto(url, { waitUntil: 'domcontentloaded', timeout: 20_000 });
  }

  /** Resolves once the layout says it is drawing the meeting (it sets `data-ready` on its root). */
  async ready(ms: number) {
    await this.page?.waitForSelector('[data-broadcast-layout][data-ready="true"]', { timeout: ms, state: 'attached' });
  }

  /** The browser is gone while its stage runs: launch it again and show what it showed. */
  private async relaunch(gone: BrowserContext) {
    if (this.isClosed || this.browser !== gone) return;
    this.browser = undefined;
    this.page = undefined;
    this.standbyBaseUrl = undefined;
    for (const waitMs of RELAUNCH_WAITS_MS) {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      if (this.isClosed) return;
      this.log('layout browser exited; starting it again');
      try {
        await this.start();
        await this.showAgain();
        this.log('layout browser started again');
        return;
      } catch (error) {
        this.log(`layout browser not started again: ${String(error)}`);
        // A half-started browser must not be left behind by the next attempt.
        const failed = this.browser as BrowserContext | undefined;
        this.browser = undefined;
        await failed?.close().catch(() => undefined);
      }
    }
  }

  private async showAgain() {
    const shown = this.shown;
    if (shown && 'url' in shown) await this.page?.goto(shown.url, { waitUntil: 'domcontentloaded', timeout: 20_000 });
    else if (shown) await this.standby(shown.standbyBaseUrl);
  }

  async stop() {
    this.isClosed = true;
    await this.browser?.close().catch(() => undefined);
  }
}
