import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { ViewerChat } from './viewer-chat';

type Tab = 'room' | 'viewers';

/**
 * The meeting room's chat panel for its hosts while the meeting has a broadcast: the room chat and
 * the viewer chat side by side as tabs (arrow keys move between them, as the ARIA pattern says).
 */
export function RoomChatTabs({
  roomChat,
  meetId,
  grant,
  hasBroadcast,
}: {
  roomChat: ReactNode;
  meetId: string;
  grant: string;
  hasBroadcast: boolean;
}) {
  const { t } = useTranslation('viewer-chat');
  const [tab, setTab] = useState<Tab>('room');
  if (!hasBroadcast) return <>{roomChat}</>;
  const tabs: { id: Tab; label: string }[] = [
    { id: 'room', label: t('room_tab') },
    { id: 'viewers', label: t('viewers_tab') },
  ];
  const onKeyDown = (event: KeyboardEvent) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    event.preventDefault();
    const next: Tab = tab === 'room' ? 'viewers' : 'room';
    setTab(next);
    document.getElementById(`viewer-chat-tab-${next}`)?.focus();
  };
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div
        role="tablist"
        aria-label={t('tabs')}
        className="flex gap-1 border-b border-slate-200 px-2 pt-2 pe-10 dark:border-slate-700"
        onKeyDown={onKeyDown}
      >
        {tabs.map((entry) => (
          <button
            key={entry.id}
            id={`viewer-chat-tab-${entry.id}`}
            type="button"
            role="tab"
            aria-selected={tab === entry.id}
            aria-controls={`viewer-chat-panel-${entry.id}`}
            tabIndex={tab === entry.id ? 0 : -1}
            onClick={() => setTab(entry.id)}
            className={cn(
              'rounded-t-lg px-3 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-primary-500',
              tab === entry.id
                ? 'border-b-2 border-primary-600 text-primary-800 dark:border-primary-400 dark:text-primary-200'
                : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100',
            )}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <div
        id={`viewer-chat-panel-${tab}`}
        role="tabpanel"
        aria-labelledby={`viewer-chat-tab-${tab}`}
        className="min-h-0 flex-1"
      >
        {tab === 'room' ? (
          roomChat
        ) : (
          <ViewerChat meetId={meetId} grant={grant} className="h-full rounded-none border-0" />
        )}
      </div>
    </div>
  );
}
