/** How long an admission this process just answered waits for its connection, and how many wait. */
const KEPT_MS = 60_000;
const MAX_KEPT = 5000;

/**
 * Grants join-room.php admitted in this process moments ago (ADR 016): the first connection that
 * presents one takes it without a lookup; it is forgotten after a minute, or when the person is
 * dropped. Bounded, so a flood of joins cannot grow it without end.
 */
export class JustAdmitted<Admission extends { participantId: string; meetingId: number }> {
  private readonly kept = new Map<string, { admission: Admission; until: number }>();

  remember(grant: string, admission: Admission) {
    const now = Date.now();
    for (const [key, entry] of this.kept) if (entry.until <= now) this.kept.delete(key);
    if (this.kept.size < MAX_KEPT) this.kept.set(grant, { admission, until: now + KEPT_MS });
  }

  /** The admission kept for this grant, if still fresh; taken once. */
  take(grant: string | null): Admission | undefined {
    const entry = grant === null ? undefined : this.kept.get(grant);
    if (!entry) return undefined;
    this.kept.delete(grant!);
    return entry.until > Date.now() ? entry.admission : undefined;
  }

  forget(matches: (admission: Admission) => boolean) {
    for (const [grant, { admission }] of this.kept) if (matches(admission)) this.kept.delete(grant);
  }
}
