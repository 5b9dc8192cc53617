/** The meeting and broadcast an answer was built from: a change of either makes it stale. */
export interface CacheSubject {
  meetingId?: number;
  broadcastId?: number;
}

interface Entry<Value> {
  value: Promise<Value>;
  expiresAt: number;
  /** Known once the build is done; until then any change drops the entry (it may have read too early). */
  subject?: CacheSubject;
}

/**
 * Answers built from a broadcast's public state, kept in this process's memory (ADR 034), so that an
 * audience asking every few seconds costs one build per key and `maxAgeMs`, not a database read per
 * request. Requests for a key while it is built share that build. An entry goes at the first change
 * of its meeting or broadcast (`forget`, fed by the broadcast signals of every process), and after
 * `maxAgeMs` in any case: what nobody announced (a meeting edited, Redis away) is served that long
 * at most. Only what every viewer is shown belongs here, never a caller's secret.
 */
export class PublicCache<Key, Value> {
  private readonly entries = new Map<Key, Entry<Value>>();

  constructor(private readonly options: { maxAgeMs: number; maxEntries: number }) {}

  get(key: Key, build: () => Promise<{ value: Value; subject: CacheSubject }>): Promise<Value> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && now < cached.expiresAt) return cached.value;
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as Key);
    const entry: Entry<Value> = {
      expiresAt: now + this.options.maxAgeMs,
      value: build().then(
        (built) => {
          entry.subject = built.subject;
          return built.value;
        },
        (error: unknown) => {
          if (this.entries.get(key) === entry) this.entries.delete(key);
          throw error;
        },
      ),
    };
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Drops what was built from this meeting or broadcast, and every build still running. */
  forget(changed: CacheSubject) {
    for (const [key, { subject }] of this.entries) {
      const isStale =
        !subject ||
        (changed.meetingId !== undefined && subject.meetingId === changed.meetingId) ||
        (changed.broadcastId !== undefined && subject.broadcastId === changed.broadcastId);
      if (isStale) this.entries.delete(key);
    }
  }

  get size() {
    return this.entries.size;
  }
}
