import { describe, expect, it } from 'vitest';
import { injectOpenGraph } from './og-page.js';

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
