/**
 * What never reaches a log line: the path and query of an address (where streaming platforms put
 * stream keys, and others their tokens) and every secret this process registered, wherever it
 * appears — a message, an error's message or stack, the stderr of a program quoted in a line.
 * Applied to each line as written (pino's `streamWrite` hook), so no call site can forget it.
 */
const secrets = new Map<string, number>();

/** Shorter strings are too likely to be ordinary text; no platform issues keys this short. */
const SHORTEST_SECRET = 6;

/** scheme://[userinfo@]host[:port] then anything up to a space, a quote or a backslash (JSON's escapes). */
const ADDRESS =
  /\b(rtmps?|rtmpt|https?|srt|rtsp|wss?):\/\/(?:[^\s/?#"'<>\\@]*@)?([^\s/?#"'<>\\]+)([/?#][^\s"'<>\\]*)?/gi;

/** Registers a secret (a stream key) to be replaced in every log line until it is forgotten. */
export function registerSecret(secret: string) {
  if (secret.length < SHORTEST_SECRET) return () => undefined;
  secrets.set(secret, (secrets.get(secret) ?? 0) + 1);
  return () => {
    const count = (secrets.get(secret) ?? 1) - 1;
    if (count > 0) secrets.set(secret, count);
    else secrets.delete(secret);
  };
}

/** `text` with every address cut to its scheme and host, and every registered secret replaced. */
export function redactSecrets(text: string): string {
  let redacted = text.replace(ADDRESS, (_match, scheme: string, host: string, rest: string | undefined) =>
    rest && rest !== '/' ? `${scheme}://${host}/[redacted]` : `${scheme}://${host}${rest ?? ''}`,
  );
  for (const secret of secrets.keys()) {
    if (redacted.includes(secret)) redacted = redacted.split(secret).join('[redacted]');
  }
  return redacted;
}

/** The server logger's hooks: every line passes through `redactSecrets` on its way out. */
export const REDACTING_LOG_HOOKS = { streamWrite: redactSecrets };
