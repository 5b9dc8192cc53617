import { describe, expect, it } from 'vitest';
import { parseStreamCallback } from './stream-callback';

describe('parseStreamCallback', () => {
  it('finds nothing on a page opened by hand', () => {
    expect(parseStreamCallback('', 'youtube')).toEqual({ kind: 'none' });
    expect(parseStreamCallback('?state=abc', 'youtube')).toEqual({ kind: 'none' });
    expect(parseStreamCallback('?code=%20&error=', 'twitch')).toEqual({ kind: 'none' });
  });

  it('sends the code and state with the platform this tab started', () => {
    expect(parseStreamCallback('?code=4%2F0Ab&state=s-1&scope=x', 'youtube')).toEqual({
      kind: 'finish',
      fields: { platform: 'youtube', code: '4/0Ab', state: 's-1' },
    });
    expect(parseStreamCallback('?code=twc&state=s-2', 'twitch')).toEqual({
      kind: 'finish',
      fields: { platform: 'twitch', code: 'twc', state: 's-2' },
    });
  });

  it('sends a refused consent as the error, without a code', () => {
    expect(parseStreamCallback('?error=access_denied&state=s-3', 'twitch')).toEqual({
      kind: 'finish',
      fields: { platform: 'twitch', error: 'access_denied', state: 's-3' },
    });
    expect(parseStreamCallback('?error=access_denied&code=x&state=s-4', 'youtube')).toEqual({
      kind: 'finish',
      fields: { platform: 'youtube', error: 'access_denied', state: 's-4' },
    });
  });

  it('sends an empty state when the provider dropped it, so the server answers why', () => {
    expect(parseStreamCallback('?code=abc', 'youtube')).toEqual({
      kind: 'finish',
      fields: { platform: 'youtube', code: 'abc', state: '' },
    });
  });

  it('cannot place an answer when this tab started no connection', () => {
    expect(parseStreamCallback('?code=abc&state=s', null)).toEqual({ kind: 'unknown-platform' });
    expect(parseStreamCallback('?code=abc&state=s', 'rtmp')).toEqual({ kind: 'unknown-platform' });
  });
});
