import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { earlyWatchAssets, injectOpenGraph } from './og-page.js';

const PAGE = '<html><head><title>Meetcast</title><script src="/app.js"></script></head><body></body></html>';

describe('injectOpenGraph', () => {
  it('puts a channel text with replacement patterns into the page literally', () => {
    const tricky = "Price $` and $' and $& and $1 <b>";
    const html = injectOpenGraph(PAGE, { title: tricky, description: tricky, url: 'https://x.test/c', image: null });
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>Price $` and $&#39; and $&#38; and $1 &#60;b&#62; · Meetcast</title>');
    expect(html.length).toBeLessThan(PAGE.length + 1000);
  });
});

describe('earlyWatchAssets', () => {
  it('runs the early watch ahead of the app’s entry and preloads what it imports, from Vite’s manifest', () => {
    const dist = mkdtempSync(join(tmpdir(), 'meetcast-manifest-'));
    expect(earlyWatchAssets(dist)).toBeUndefined();
    mkdirSync(join(dist, '.vite'));
    writeFileSync(
      join(dist, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_shared-B.js'] },
        'src/features/channels/player/early-watch.ts': {
          file: 'assets/early-watch-C.js',
          name: 'early-watch',
          isEntry: true,
          imports: ['_shared-B.js', '_handoff-D.js'],
        },
        '_shared-B.js': { file: 'assets/shared-B.js', imports: ['_handoff-D.js'] },
        '_handoff-D.js': { file: 'assets/handoff-D.js' },
      }),
    );
    const assets = earlyWatchAssets(dist);
    expect(assets).toEqual({
      script: '/assets/early-watch-C.js',
      imports: ['/assets/shared-B.js', '/assets/handoff-D.js'],
    });
    const page = PAGE.replace('<script src="/app.js">', '<script type="module" crossorigin src="/assets/index-A.js">');
    const html = injectOpenGraph(page, undefined, undefined, assets);
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/handoff-D.js" />');
    const early = html.indexOf('<script type="module" crossorigin src="/assets/early-watch-C.js"></script>');
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThan(html.indexOf('src="/assets/index-A.js"'));
  });
});
