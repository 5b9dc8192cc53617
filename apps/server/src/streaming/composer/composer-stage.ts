import { mkdirSync, rmSync } from 'node:fs';
import { ProcessLedger } from './child-processes.js';
import { LayoutBrowser } from './layout-browser.js';
import { VirtualScreen } from './virtual-screen.js';

const SCREEN = { width: 1280, height: 720 };

/**
 * What a composer draws with: its virtual screen and sound card and the Chromium showing them.
 * Starting these takes seconds, so a worker keeps one ready (a spare) and a broadcast only has to
 * open its layout page in it.
 */
export class ComposerStage {
  readonly ledger: ProcessLedger;
  readonly screen: VirtualScreen;
  readonly browser: LayoutBrowser;

  constructor(
    readonly folder: string,
    readonly displayNumber: number,
    log: (message: string) => void,
  ) {
    mkdirSync(folder, { recursive: true });
    this.ledger = new ProcessLedger(folder, 'processes');
    this.screen = new VirtualScreen(this.ledger, folder, displayNumber, SCREEN);
    this.browser = new LayoutBrowser(folder, this.screen, log);
  }

  async start() {
    await this.screen.start();
    await this.browser.start();
    return this;
  }

  async stop() {
    await this.browser.stop();
    await this.screen.stop();
    this.ledger.killAll();
    rmSync(this.folder, { recursive: true, force: true });
  }
}
