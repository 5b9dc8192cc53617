import type { LiveBroadcast } from '@meetcast/contracts';

/**
 * Whether this participant is backstage on the meeting's running broadcast (ADR 045): in the
 * meeting, but neither drawn nor heard on the stream. Unknown (no broadcast, or not shown the
 * stage) is not backstage.
 */
export function isBackstage(broadcast: LiveBroadcast | null | undefined, selfId: string | undefined) {
  const isRunning = broadcast?.state === 'starting' || broadcast?.state === 'live';
  return Boolean(isRunning && selfId && broadcast.on_stage && !broadcast.on_stage.includes(selfId));
}

/**
 * The people the composer's page draws and plays: those on stage, never the composer itself. Until
 * the stage is known (null), nobody, rather than someone who should not be on the stream.
 */
export function peopleOnStage<Person extends { id: string }>(
  people: Person[],
  composerId: string,
  onStage: string[] | null,
): Person[] {
  if (!onStage) return [];
  const stage = new Set(onStage);
  return people.filter((person) => person.id !== composerId && stage.has(person.id));
}
