/** A chat message as a platform gave it, before it is cleaned. */
export interface RawChatMessage {
  id: string;
  authorName: string;
  authorId: string | null;
  avatarUrl: string | null;
  text: string;
  /** Epoch milliseconds. */
  publishedAt: number;
}

/**
 * One platform's chat of one broadcast. `next` answers the messages that came since the last call
 * and how long to wait before the next call (a poller's interval; 0 for a socket, whose `next`
 * itself waits for a message). It throws when the platform fails; `close` ends a waiting `next`.
 */
export interface ChatSource {
  next(): Promise<{ waitMs: number; messages: RawChatMessage[] }>;
  close(): void;
}

/** After the n-th failure in a row: 1 s, 2 s, 4 s … at most 30 s. */
export const chatBackoffMs = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));

/**
 * Reads a source until stopped: each batch goes to `deliver`; a failure is logged and retried after
 * chatBackoffMs, so a platform outage slows the reader down instead of ending it.
 */
export function runChatReader(
  source: ChatSource,
  deliver: (messages: RawChatMessage[]) => Promise<void>,
  onFailure: (error: unknown, failures: number) => void,
) {
  let isStopped = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = async () => {
    let failures = 0;
    while (!isStopped) {
      let waitMs: number;
      try {
        const batch = await source.next();
        if (isStopped) break;
        failures = 0;
        if (batch.messages.length > 0) await deliver(batch.messages);
        waitMs = batch.waitMs;
      } catch (error) {
        if (isStopped) break;
        failures += 1;
        onFailure(error, failures);
        waitMs = chatBackoffMs(failures);
      }
      if (waitMs > 0 && !isStopped) await pause(waitMs);
    }
  };
  const done = loop();
  return {
    async stop() {
      isStopped = true;
      source.close();
      wake?.();
      await done;
    },
  };
}
