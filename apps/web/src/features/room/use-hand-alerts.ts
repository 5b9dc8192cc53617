import type { Participant } from '@meetcast/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';

/** Raised hands first, in the order they went up (the server's time), then everyone else as given. */
export function raisedHandsFirst(participants: Participant[]): Participant[] {
  const raised = participants
    .filter((participant) => participant.hand_raised)
    .sort((a, b) => (a.hand_raised_at ?? 0) - (b.hand_raised_at ?? 0) || a.id.localeCompare(b.id));
  return [...raised, ...participants.filter((participant) => !participant.hand_raised)];
}

/**
 * A host (or co-host) is told when someone raises a hand: a toast with the name, which a screen
 * reader announces too. Hands already up when the host arrives are in the panel, not in a burst of toasts.
 */
export function useHandAlerts(participants: Participant[], selfId: string | undefined, isHost: boolean) {
  const { t } = useTranslation('room');
  const known = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    // Not (yet) a host in the room: no baseline, so the hands found on arrival (or after a reload) are not news.
    if (!isHost) {
      known.current = undefined;
      return;
    }
    const raised = new Set(participants.filter((p) => p.hand_raised && p.id !== selfId).map((p) => p.id));
    const before = known.current;
    known.current = raised;
    if (!before) return;
    for (const participant of participants) {
      if (!raised.has(participant.id) || before.has(participant.id)) continue;
      toast.info(t('hands.raised', { name: participant.display_name }), { toastId: `hand:${participant.id}` });
    }
  }, [participants, selfId, isHost, t]);
}
