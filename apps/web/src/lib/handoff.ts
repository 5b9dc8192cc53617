/**
 * Something a page starts before the part that will own it exists (a connection opened by a click
 * or by the entry script, before React has rendered its owner): held under one key, handed over
 * once, and closed if nobody takes it in time.
 */
export class Handoff<K, T> {
  private held: { key: K; value: T; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(
    private readonly close: (value: T) => void,
    private readonly unclaimedMs: number,
  ) {}

  /** Holds `value` for `key`, closing whatever was held before. */
  hold(key: K, value: T) {
    this.discard();
    this.held = { key, value, timer: setTimeout(() => this.discard(), this.unclaimedMs) };
  }

  /**
   * Gives the owner-to-be `unclaimedMs` more from now (its code has only just started to load): a
   * busy machine can take longer than that to get from the page's first byte to the owner.
   */
  extend() {
    const held = this.held;
    if (!held) return;
    clearTimeout(held.timer);
    held.timer = setTimeout(() => this.discard(), this.unclaimedMs);
  }

  /** What is held for `key`, still held. */
  peek(key: K): T | undefined {
    return this.held?.key === key ? this.held.value : undefined;
  }

  /** What is held for `key`, now the caller's (once). */
  take(key: K): T | undefined {
    const held = this.held;
    if (!held || held.key !== key) return undefined;
    clearTimeout(held.timer);
    this.held = undefined;
    return held.value;
  }

  private discard() {
    const held = this.held;
    this.held = undefined;
    if (!held) return;
    clearTimeout(held.timer);
    this.close(held.value);
  }
}

/** A callback that may fire before anyone listens: its latest call is passed on to the listener when it comes. */
export class HeldCallback<A extends unknown[]> {
  private listener: ((...args: A) => void) | undefined;
  private last: A | undefined;

  readonly call = (...args: A) => {
    if (this.listener) this.listener(...args);
    else this.last = args;
  };

  listen(listener: (...args: A) => void) {
    this.listener = listener;
    const last = this.last;
    this.last = undefined;
    // After the new owner has finished taking over, as a later event would reach it.
    if (last) queueMicrotask(() => listener(...last));
  }
}
