/**
 * Makes the sign-in callback send its code exactly once. Within one page load a module-level set
 * remembers what was sent (a second mount, React StrictMode); across page loads session storage
 * does (a reload or Back after the code went out). The page also removes the code from the address.
 */
export type CallbackDecision =
  /** Send this code now (first time it is seen). */
  | 'send'
  /** This page load already sent it (or another one); the first request will finish the job. */
  | 'wait'
  /** Nothing to send: opened by hand, or reloaded after the code was used. Go away. */
  | 'leave';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

const SENT_KEY = 'meetcast:external-sign-in:sent';

export function createCallbackGuard(storage: () => Storage | undefined) {
  const sent = new Set<string>();

  function readStored(): string | null {
    try {
      return storage()?.getItem(SENT_KEY) ?? null;
    } catch {
      return null;
    }
  }

  return function decide(key: string): CallbackDecision {
    if (!key) return sent.size > 0 ? 'wait' : 'leave';
    if (sent.has(key)) return 'wait';
    if (readStored() === key) return 'leave';
    sent.add(key);
    try {
      storage()?.setItem(SENT_KEY, key);
    } catch {
      // Storage can be unavailable (private modes); the set and the cleaned address still hold.
    }
    return 'send';
  };
}

/** The one guard of the page, shared by every mount of the callback route. */
export const decideCallback = createCallbackGuard(() =>
  typeof sessionStorage === 'undefined' ? undefined : sessionStorage,
);
