import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { earlyWatchFiles, injectOpenGraph } from './og-page.js';

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

describe('earlyWatchFiles', () => {
  it('lists the early watch and the chunks it imports, not the entry, from Vite’s manifest', () => {
    const dist = mkdtempSync(join(tmpdir(), 'meetcast-manifest-'));
    expect(earlyWatchFiles(dist)).toEqual([]);
    mkdirSync(join(dist, '.vite'));
    writeFileSync(
      join(dist, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_shared-B.js'] },
        '_early-watch-C.js': {
          file: 'assets/early-watch-C.js',
          name: 'early-watch',
          imports: ['_shared-B.js', 'index.html', '_handoff-D.js'],
        },
        '_shared-B.js': { file: 'assets/shared-B.js', imports: ['_handoff-D.js'] },
        '_handoff-D.js': { file: 'assets/handoff-D.js' },
      }),
    );
    expect(earlyWatchFiles(dist)).toEqual(['/assets/early-watch-C.js', '/assets/shared-B.js', '/assets/handoff-D.js']);
    const html = injectOpenGraph(PAGE, undefined, undefined, earlyWatchFiles(dist));
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/early-watch-C.js" />');
  });
});
