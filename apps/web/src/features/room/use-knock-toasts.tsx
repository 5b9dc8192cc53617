import type { LobbyEntry, RoomClientMessage } from '@meetcast/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { playKnockChime } from './knock-chime';

const knockToastId = (participantId: string) => `knock:${participantId}`;

function KnockToast({ name, onAdmit, onDeny }: { name: string; onAdmit: () => void; onDeny: () => void }) {
  const { t } = useTranslation('room');
  return (
    <div className="space-y-2">
      <p className="font-medium">{t('knock.wants_to_join', { name })}</p>
      <div className="flex gap-2">
        <Button size="sm" onClick={onAdmit}>
          {t('people.admit')}
        </Button>
        <Button size="sm" variant="secondary" onClick={onDeny}>
          {t('people.deny')}
        </Button>
      </div>
    </div>
  );
}

/**
 * A host hears and sees each knock: a toast with Admit and Deny plus a chime, on top of the lobby
 * badge. The toast stays until someone decides (here, in the panel or by another host) or the guest
 * gives up waiting: a knock that vanished after five seconds would be as easy to miss as the badge.
 */
export function useKnockToasts(lobby: LobbyEntry[], isHost: boolean, onHost: (message: RoomClientMessage) => void) {
  const shown = useRef(new Set<string>());
  const onHostRef = useRef(onHost);
  useEffect(() => {
    onHostRef.current = onHost;
  }, [onHost]);

  useEffect(() => {
    const waiting = new Set(isHost ? lobby.map((entry) => entry.participant_id) : []);
    for (const id of shown.current) {
      if (waiting.has(id)) continue;
      toast.dismiss(knockToastId(id));
      shown.current.delete(id);
    }
    const arrivals = isHost ? lobby.filter((entry) => !shown.current.has(entry.participant_id)) : [];
    for (const entry of arrivals) {
      const id = entry.participant_id;
      shown.current.add(id);
      const decide = (type: 'host.admit' | 'host.deny') => {
        toast.dismiss(knockToastId(id));
        onHostRef.current({ type, participant_id: id });
      };
      toast(
        <KnockToast
          name={entry.display_name}
          onAdmit={() => decide('host.admit')}
          onDeny={() => decide('host.deny')}
        />,
        { toastId: knockToastId(id), autoClose: false, closeOnClick: false },
      );
    }
    if (arrivals.length > 0) playKnockChime();
  }, [lobby, isHost]);

  // Leaving the call leaves no knocks behind on the next page.
  useEffect(() => {
    const knocks = shown.current;
    return () => {
      for (const id of knocks) toast.dismiss(knockToastId(id));
      knocks.clear();
    };
  }, []);
}
