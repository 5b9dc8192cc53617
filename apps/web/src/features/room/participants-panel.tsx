import { HandIcon, MicIcon, MicOffIcon, VideoIcon } from 'lucide-react';
import type { LobbyEntry, Participant, RoomClientMessage } from '@meetcast/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';

/** Everyone in the room (raised hands first), the lobby, and (for hosts) the controls over them. */
export function ParticipantsPanel({
  participants,
  lobby,
  self,
  isLocked,
  onHost,
}: {
  participants: Participant[];
  lobby: LobbyEntry[];
  self: Participant | undefined;
  isLocked: boolean;
  onHost: (message: RoomClientMessage) => void;
}) {
  const { t } = useTranslation('room');
  const isHost = self?.role === 'host' || self?.role === 'cohost';
  const isOwner = self?.role === 'host';
  // Raised hands come first in the order raised (`raisedHandsFirst`): their place is their turn.
  const hands = participants.filter((participant) => participant.hand_raised);
  const others = participants.filter((participant) => !participant.hand_raised);
  // Removing someone and ending the meeting cannot be taken back mid-call: both ask first.
  const [confirming, setConfirming] = useState<{ remove: Participant } | 'end' | undefined>();
  const onConfirm = () => {
    if (confirming === 'end') onHost({ type: 'host.end' });
    else if (confirming) onHost({ type: 'host.remove', participant_id: confirming.remove.id });
    setConfirming(undefined);
  };
  const rowProps = {
    selfId: self?.id,
    isHost,
    isOwner,
    onHost,
    onRemove: (participant: Participant) => setConfirming({ remove: participant }),
  };
  return (
    <section aria-label={t('people.title')} className="flex h-full min-h-0 flex-col">
      <h2 className="border-b border-slate-200 px-4 py-3 font-semibold dark:border-slate-700">
        {t('people.title_count', { count: participants.length })}
      </h2>
      <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-4 py-3">
        {isHost && lobby.length > 0 && (
          <div>
            <h3 className="mb-2 text-sm font-semibold text-amber-700 dark:text-amber-300">
              {t('people.lobby', { count: lobby.length })}
            </h3>
            <ul className="space-y-2">
              {lobby.map((entry) => (
                <li key={entry.participant_id} className="flex items-center justify-between gap-2 text-sm">
                  <span className="truncate">{entry.display_name}</span>
                  <span className="flex gap-1">
                    <Button
                      size="sm"
                      onClick={() => onHost({ type: 'host.admit', participant_id: entry.participant_id })}
                    >
                      {t('people.admit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => onHost({ type: 'host.deny', participant_id: entry.participant_id })}
                    >
                      {t('people.deny')}
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {hands.length > 0 && (
          <div>
            <h3 className="mb-2 text-sm font-semibold text-amber-700 dark:text-amber-300">{t('hands.title')}</h3>
            {/* An ordered list: everyone sees (and hears) whose turn comes first, as the host does. */}
            <ol className="space-y-2" aria-label={t('hands.title')}>
              {hands.map((participant, index) => (
                <ParticipantRow key={participant.id} participant={participant} place={index + 1} {...rowProps} />
              ))}
            </ol>
          </div>
        )}
        <ul className="space-y-2">
          {others.map((participant) => (
            <ParticipantRow key={participant.id} participant={participant} {...rowProps} />
          ))}
        </ul>
      </div>
      {isHost && (
        <div className="flex flex-wrap gap-2 border-t border-slate-200 p-3 dark:border-slate-700">
          <Button size="sm" variant="secondary" onClick={() => onHost({ type: 'host.mute-all' })}>
            {t('people.mute_all')}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            aria-pressed={isLocked}
            onClick={() => onHost({ type: 'host.lock', locked: !isLocked })}
          >
            {isLocked ? t('people.unlock') : t('people.lock')}
          </Button>
          <Button size="sm" variant="danger" onClick={() => setConfirming('end')}>
            {t('people.end_for_all')}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming !== undefined}
        title={
          confirming === 'end'
            ? t('confirm.end_title')
            : t('confirm.remove_title', { name: confirming?.remove.display_name ?? '' })
        }
        text={confirming === 'end' ? t('confirm.end_text') : t('confirm.remove_text')}
        confirmLabel={confirming === 'end' ? t('confirm.end') : t('people.remove')}
        cancelLabel={t('actions.cancel', { ns: 'common' })}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(undefined)}
      />
    </section>
  );
}

/** One person: name and role, hand (with its place in the queue), microphone and camera, and a host's controls. */
function ParticipantRow({
  participant,
  place,
  selfId,
  isHost,
  isOwner,
  onHost,
  onRemove,
}: {
  participant: Participant;
  /** Their turn among the raised hands, counted from 1. */
  place?: number;
  selfId: string | undefined;
  isHost: boolean;
  isOwner: boolean;
  onHost: (message: RoomClientMessage) => void;
  onRemove: (participant: Participant) => void;
}) {
  const { t } = useTranslation('room');
  const isSelf = participant.id === selfId;
  return (
    <li className="space-y-1 text-sm" data-participant={participant.id}>
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-medium">
          {participant.display_name}
          {isSelf && ` (${t('tile.you')})`}
          {participant.role !== 'participant' && (
            <span className="ms-1 text-xs text-slate-500 dark:text-slate-400">· {t(`roles.${participant.role}`)}</span>
          )}
        </span>
        {participant.hand_raised && (
          <span className="flex items-center gap-0.5 text-amber-600 dark:text-amber-400">
            <HandIcon className="size-4" aria-label={t('tile.hand_raised')} />
            <span className="text-xs font-semibold tabular-nums" aria-hidden>
              {place}
            </span>
          </span>
        )}
        {isHost && !isSelf && participant.hand_raised && (
          <Button
            size="sm"
            variant="ghost"
            aria-label={t('people.lower_hand_name', { name: participant.display_name })}
            onClick={() => onHost({ type: 'host.lower-hand', participant_id: participant.id })}
          >
            {t('controls.lower_hand')}
          </Button>
        )}
        {participant.audio ? (
          <MicIcon className="size-4" aria-label={t('tile.unmuted')} />
        ) : (
          <MicOffIcon className="size-4 text-red-500" aria-label={t('tile.muted')} />
        )}
        {participant.video && <VideoIcon className="size-4" aria-label={t('tile.camera_on')} />}
      </div>
      {isHost && !isSelf && participant.role !== 'host' && (
        <div className="flex flex-wrap gap-1">
          <Button
            size="sm"
            variant="ghost"
            aria-label={t('people.mute_name', { name: participant.display_name })}
            onClick={() => onHost({ type: 'host.mute', participant_id: participant.id })}
          >
            {t('people.mute')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={t('people.stop_video_name', { name: participant.display_name })}
            onClick={() => onHost({ type: 'host.stop-video', participant_id: participant.id })}
          >
            {t('people.stop_video')}
          </Button>
          {isOwner && participant.role === 'participant' && (
            <Button
              size="sm"
              variant="ghost"
              aria-label={t('people.promote_name', { name: participant.display_name })}
              onClick={() => onHost({ type: 'host.promote', participant_id: participant.id })}
            >
              {t('people.promote')}
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            className="text-red-600 dark:text-red-400"
            aria-label={t('people.remove_name', { name: participant.display_name })}
            onClick={() => onRemove(participant)}
          >
            {t('people.remove')}
          </Button>
        </div>
      )}
    </li>
  );
}
