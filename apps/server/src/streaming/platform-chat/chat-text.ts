import { withoutBidiControls } from '@meetcast/contracts';

const TAGS = /<\/?[a-z!][^>]*>/gi;
// Platform text is read as text: no control character has a place in it.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u200B\u2028\u2029\uFEFF]/g;

/**
 * Platform text is hostile: markup is removed (not escaped, so nothing of it shows), control and bidi
 * characters go, whitespace is folded, and the result is clipped. Clients still render it as text.
 */
export function plainChatText(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const plain = withoutBidiControls(value.replace(TAGS, ' ')).replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  return [...plain].slice(0, max).join('');
}
