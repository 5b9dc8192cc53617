import { mkdirSync, rmSync } from 'node:fs';
import { killProcessesMentioning, ProcessLedger } from './child-processes.js';
import type { StageScreen } from './capacity.js';
import { LayoutBrowser } from './layout-browser.js';
import { VirtualScreen } from './virtual-screen.js';

/**
 * What a composer draws with: its virtual screen and sound card and the Chromium showing them.
 * Starting these takes seconds, so a worker keeps one ready (a spare) and a broadcast only has to
 * open its layout page in it.
 */
export class ComposerStage {
  readonly ledger: ProcessLedger;
  readonly screen: VirtualScreen;
  readonly browser: LayoutBrowser;
  private isStopped = false;

  constructor(
    readonly folder: string,
    readonly displayNumber: number,
    log: (message: string) => void,
    readonly stageScreen: StageScreen,
  ) {
    mkdirSync(folder, { recursive: true });
    this.ledger = new ProcessLedger(folder, 'processes');
    this.screen = new VirtualScreen(this.ledger, folder, displayNumber, stageScreen);
    this.browser = new LayoutBrowser(folder, this.screen, log);
  }

  /** With `pageBaseUrl` (a spare), the browser also waits on the layout's standby page there. */
  async start(pageBaseUrl?: string) {
    await this.screen.start();
    await this.browser.start();
    if (this.isStopped) throw new Error('composer stage stopped while starting');
    if (pageBaseUrl) await this.browser.standby(pageBaseUrl);
    return this;
  }

  async stop() {
    this.isStopped = true;
    await this.browser.stop();
    await this.screen.stop();
    this.ledger.killAll();
    // A Chromium still being launched when the stage stops is not known to the browser yet.
    killProcessesMentioning(`${this.folder}/`);
    rmSync(this.folder, { recursive: true, force: true });
  }
}
