import { meetingRoomPath, type LiveBroadcast, type Participant } from '@meetcast/contracts';
import { CopyIcon } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { useSetStage } from './live-api';

/** The room the studio is open in: its people, and who this page is. */
export interface StudioRoom {
  grant: string;
  people: Participant[];
  selfId: string | undefined;
}

/** Where a guest joins the meeting backstage: the meeting's own link, so its password and lobby still apply. */
export function backstageLink(origin: string, slug: string) {
  return `${origin}${meetingRoomPath({ url_slug: slug })}?backstage=1`;
}

function StageRow({
  person,
  isOnStage,
  isSelf,
  meetId,
}: {
  person: Participant;
  isOnStage: boolean;
  isSelf: boolean;
  meetId: string;
}) {
  const { t } = useTranslation('streaming');
  const nameId = useId();
  const setStage = useSetStage(meetId);
  const shownOnStage = setStage.isPending ? setStage.variables.onStage : isOnStage;
  return (
    <li data-stage-person={person.id} className="flex items-center justify-between gap-3 py-2">
      <span className="min-w-0">
        <span id={nameId} dir="auto" className="block truncate text-sm font-medium text-slate-900 dark:text-white">
          {person.display_name}
          {isSelf && <span className="text-slate-600 dark:text-slate-400"> {t('stage.you')}</span>}
        </span>
        <span
          className={
            shownOnStage
              ? 'text-xs font-semibold text-red-700 dark:text-red-300'
              : 'text-xs text-slate-600 dark:text-slate-400'
          }
        >
          {shownOnStage ? t('stage.on') : t('stage.off')}
        </span>
      </span>
      <Button
        size="sm"
        variant={shownOnStage ? 'secondary' : 'primary'}
        aria-describedby={nameId}
        isLoading={setStage.isPending}
        onClick={() => setStage.mutate({ participantId: person.id, onStage: !shownOnStage })}
      >
        {shownOnStage ? t('stage.remove') : t('stage.add')}
      </Button>
    </li>
  );
}

/**
 * Who is on the broadcast (ADR 045): each person of the room with "Add to stage" or "Remove from
 * stage", and the backstage link to copy for guests.
 */
export function StageList({ broadcast, room }: { broadcast: LiveBroadcast; room: StudioRoom }) {
  const { t } = useTranslation('streaming');
  const onStage = new Set(broadcast.on_stage ?? []);
  const copyLink = () => {
    const link = backstageLink(window.location.origin, broadcast.url_slug);
    void navigator.clipboard.writeText(link).then(
      () => toast.success(t('stage.link_copied')),
      () => toast.info(link),
    );
  };
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-600 dark:text-slate-400">{t('stage.hint')}</p>
      {room.people.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('stage.nobody')}</p>
      ) : (
        <ul aria-live="polite" className="divide-y divide-slate-200 dark:divide-slate-700">
          {room.people.map((person) => (
            <StageRow
              key={person.id}
              person={person}
              isOnStage={onStage.has(person.id)}
              isSelf={person.id === room.selfId}
              meetId={broadcast.url_slug}
            />
          ))}
        </ul>
      )}
      <div className="space-y-1 pt-1">
        <Button size="sm" variant="secondary" onClick={copyLink}>
          <CopyIcon className="size-4" aria-hidden />
          {t('stage.copy_link')}
        </Button>
        <p className="text-xs text-slate-600 dark:text-slate-400">{t('stage.link_hint')}</p>
      </div>
    </div>
  );
}
