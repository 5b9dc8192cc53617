import {
  ChartColumnIcon,
  HandIcon,
  LayoutGridIcon,
  LinkIcon,
  MessageSquareIcon,
  MicIcon,
  MicOffIcon,
  PhoneOffIcon,
  RadioIcon,
  ScreenShareIcon,
  SmileIcon,
  UsersIcon,
  VideoIcon,
  VideoOffIcon,
} from 'lucide-react';
import { REACTIONS } from '@meetcast/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';

function ToolButton({
  label,
  shortcut,
  isActive = false,
  isDanger = false,
  isPressed,
  badge,
  startBadge,
  onClick,
  children,
}: {
  label: string;
  shortcut?: string;
  isActive?: boolean;
  isDanger?: boolean;
  isPressed?: boolean;
  badge?: number;
  /** A second count, amber, on the other corner (raised hands beside the lobby's knocks). */
  startBadge?: number;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      aria-pressed={isPressed}
      aria-keyshortcuts={shortcut}
      title={shortcut ? `${label} (${shortcut.toUpperCase()})` : label}
      className={cn(
        'relative rounded-full p-3 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-400',
        isDanger
          ? 'bg-red-600 text-white hover:bg-red-700'
          : isActive
            ? 'bg-primary-600 text-white'
            : 'bg-slate-700 text-white hover:bg-slate-600',
      )}
    >
      {children}
      {badge ? (
        <span className="absolute -end-1 -top-1 min-w-5 rounded-full bg-red-500 px-1 text-xs font-bold" aria-hidden>
          {badge}
        </span>
      ) : null}
      {startBadge ? (
        <span
          className="absolute -start-1 -top-1 min-w-5 rounded-full bg-amber-400 px-1 text-xs font-bold text-slate-950"
          aria-hidden
        >
          {startBadge}
        </span>
      ) : null}
    </button>
  );
}

export interface ToolbarProps {
  isAudioOn: boolean;
  isVideoOn: boolean;
  isSharing: boolean;
  isHandRaised: boolean;
  isChatOpen: boolean;
  isPeopleOpen: boolean;
  unreadChat: number;
  lobbyCount: number;
  /** Hands up, shown to hosts on the participants button. */
  raisedHands: number;
  layout: 'grid' | 'speaker';
  onToggleAudio: () => void;
  onToggleVideo: () => void;
  onToggleScreen: () => void;
  onToggleHand: () => void;
  onReaction: (emoji: (typeof REACTIONS)[number]) => void;
  onToggleChat: () => void;
  onTogglePeople: () => void;
  onToggleLayout: () => void;
  onCopyLink: () => void;
  onLeave: () => void;
  /** The camera, microphone and speaker menu, next to the camera button. */
  deviceMenu?: ReactNode;
  /** The Polls panel's button; its badge counts the open polls this person has not answered. */
  polls: { isOpen: boolean; unanswered: number; onToggle: () => void };
  /** The Live panel's button, for the host and co-hosts only; red while the meeting is on air. */
  live?: { isOpen: boolean; isOnAir: boolean; onToggle: () => void } | undefined;
}

export function RoomToolbar(props: ToolbarProps) {
  const { t } = useTranslation('room');
  const [isReacting, setIsReacting] = useState(false);
  return (
    <div
      role="toolbar"
      aria-label={t('controls.toolbar')}
      className="relative flex flex-wrap items-center justify-center gap-2 bg-slate-900 p-3"
    >
      <ToolButton
        label={props.isAudioOn ? t('controls.mute') : t('controls.unmute')}
        shortcut="m"
        isDanger={!props.isAudioOn}
        isPressed={!props.isAudioOn}
        onClick={props.onToggleAudio}
      >
        {props.isAudioOn ? <MicIcon className="size-5" /> : <MicOffIcon className="size-5" />}
      </ToolButton>
      <ToolButton
        label={props.isVideoOn ? t('controls.camera_off') : t('controls.camera_on')}
        shortcut="v"
        isDanger={!props.isVideoOn}
        isPressed={!props.isVideoOn}
        onClick={props.onToggleVideo}
      >
        {props.isVideoOn ? <VideoIcon className="size-5" /> : <VideoOffIcon className="size-5" />}
      </ToolButton>
      {props.deviceMenu}
      <ToolButton
        label={props.isSharing ? t('controls.stop_share') : t('controls.share')}
        shortcut="s"
        isActive={props.isSharing}
        isPressed={props.isSharing}
        onClick={props.onToggleScreen}
      >
        <ScreenShareIcon className="size-5" />
      </ToolButton>
      <ToolButton
        label={props.isHandRaised ? t('controls.lower_hand') : t('controls.raise_hand')}
        shortcut="h"
        isActive={props.isHandRaised}
        isPressed={props.isHandRaised}
        onClick={props.onToggleHand}
      >
        <HandIcon className="size-5" />
      </ToolButton>
      <div className="relative">
        <ToolButton label={t('controls.react')} isPressed={isReacting} onClick={() => setIsReacting((v) => !v)}>
          <SmileIcon className="size-5" />
        </ToolButton>
        {isReacting && (
          <div
            role="menu"
            className="absolute bottom-14 start-1/2 flex -translate-x-1/2 gap-1 rounded-full bg-slate-800 p-2 rtl:translate-x-1/2"
          >
            {REACTIONS.map((emoji) => (
              <button
                key={emoji}
                type="button"
                role="menuitem"
                aria-label={t('controls.react_with', { emoji })}
                className="rounded-full p-1 text-2xl hover:bg-slate-700"
                onClick={() => {
                  props.onReaction(emoji);
                  setIsReacting(false);
                }}
              >
                {emoji}
              </button>
            ))}
          </div>
        )}
      </div>
      <ToolButton
        label={t('controls.chat')}
        shortcut="c"
        isActive={props.isChatOpen}
        isPressed={props.isChatOpen}
        badge={props.unreadChat}
        onClick={props.onToggleChat}
      >
        <MessageSquareIcon className="size-5" />
      </ToolButton>
      <ToolButton
        label={t('controls.people')}
        isActive={props.isPeopleOpen}
        isPressed={props.isPeopleOpen}
        badge={props.lobbyCount}
        startBadge={props.raisedHands}
        onClick={props.onTogglePeople}
      >
        <UsersIcon className="size-5" />
      </ToolButton>
      <ToolButton
        label={t('controls.polls')}
        isActive={props.polls.isOpen}
        isPressed={props.polls.isOpen}
        badge={props.polls.unanswered}
        onClick={props.polls.onToggle}
      >
        <ChartColumnIcon className="size-5" />
      </ToolButton>
      {props.live && (
        <ToolButton
          label={props.live.isOnAir ? t('controls.live_on_air') : t('controls.go_live')}
          isActive={props.live.isOpen}
          isDanger={props.live.isOnAir && !props.live.isOpen}
          isPressed={props.live.isOpen}
          onClick={props.live.onToggle}
        >
          <RadioIcon className="size-5" />
        </ToolButton>
      )}
      <ToolButton
        label={props.layout === 'grid' ? t('controls.speaker_layout') : t('controls.grid_layout')}
        onClick={props.onToggleLayout}
      >
        <LayoutGridIcon className="size-5" />
      </ToolButton>
      <ToolButton label={t('controls.copy_link')} onClick={props.onCopyLink}>
        <LinkIcon className="size-5" />
      </ToolButton>
      <ToolButton label={t('controls.leave')} isDanger onClick={props.onLeave}>
        <PhoneOffIcon className="size-5" />
      </ToolButton>
    </div>
  );
}
