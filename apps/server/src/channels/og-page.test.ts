import { describe, expect, it } from 'vitest';
import { injectOpenGraph, type PageData } from './og-page.js';

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

describe('page data', () => {
  const BUILT = [
    '<html><head><meta charset="UTF-8" /><!-- page-data --><!-- early-watch --><title>Meetcast</title>',
    '<script type="module" crossorigin src="/assets/index-A.js"></script></head><body></body></html>',
  ].join('');
  const channel = { channel: null, broadcast: null } as unknown as PageData['channel-page'];
  const viewer = (webrtc: unknown) => ({ state: 'live', webrtc }) as unknown as PageData['broadcast-viewer'];

  it('goes where index.html marks it; a page with nothing live gets no early watch and starts the app itself', () => {
    const html = injectOpenGraph(BUILT, undefined, { 'channel-page': channel }, 'early()');
    const block = html.indexOf('<script type="application/json" id="channel-page">');
    expect(block).toBeGreaterThan(0);
    expect(block).toBeLessThan(html.indexOf('<title>'));
    expect(html).not.toContain('<!-- page-data -->');
    expect(html).not.toContain('early()');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-A.js"></script>');
    expect(html).not.toContain('id="app-entry"');
  });

  it('hands the app’s entry to the early watch on a live broadcast’s page, preloaded meanwhile', () => {
    const access = { url: '/janus-watch', grant: 'g', expires_at: 1, ice_servers: [] };
    const live = { 'channel-page': channel, 'broadcast-viewer': viewer(access) };
    // Without the built early watch the page stays as it is: nothing would start the app.
    expect(injectOpenGraph(BUILT, undefined, live)).toContain(
      '<script type="module" crossorigin src="/assets/index-A.js">',
    );
    const html = injectOpenGraph(BUILT, undefined, live, 'early()');
    expect(html).not.toContain('<script type="module"');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/index-A.js" />');
    const entry = html.indexOf('<script type="application/json" id="app-entry">"/assets/index-A.js"</script>');
    expect(entry).toBeGreaterThan(0);
    expect(entry).toBeLessThan(html.indexOf('<script>early()</script>'));
  });
});
