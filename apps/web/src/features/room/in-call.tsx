import { XIcon } from 'lucide-react';
import { meetingRoomPath } from '@meetcast/contracts';
import type { RoomClientMessage } from '@meetcast/contracts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Spinner } from '../../components/spinner';
import { setCallView } from '../../lib/call-view';
import { isBroadcastActive, LiveBadge, LivePanel, useLiveBroadcast } from '../live-studio';
import { RoomChatTabs } from '../viewer-chat';
import type { Joined } from './pre-join';
import { BackstageNotice } from './backstage-notice';
import { isBackstage } from './on-stage';
import { ChatPanel } from './chat-panel';
import { ConnectionBanner } from './connection-banner';
import { DeviceMenu } from './device-menu';
import { MeetingTimer } from './meeting-timer';
import { ParticipantsPanel } from './participants-panel';
import { PollsPanel, usePollToasts } from './polls-panel';
import { RoomNotice } from './room-notice';
import { RoomToolbar } from './room-toolbar';
import { buildTiles, Stage } from './stage';
import type { LocalMedia } from './use-local-media';
import { useRoomMedia } from './use-room-media';
import { useRoomShortcuts } from './use-room-shortcuts';
import { raisedHandsFirst, useHandAlerts } from './use-hand-alerts';
import { useKnockToasts } from './use-knock-toasts';
import { useRoomSocket } from './use-room-socket';
import { expectedCameras } from './room-state';

/** The meeting once joined: lobby wait, the stage, the toolbar, chat and people panels. */
export function InCall({
  joined,
  local,
  onLeave,
  onGrantRefused,
}: {
  joined: Joined;
  local: LocalMedia;
  onLeave: () => void;
  /** The room refused the grant (expired, or its session is over): back to the pre-join screen. */
  onGrantRefused: (hasExpired: boolean) => void;
}) {
  const { t } = useTranslation('room');
  const [panel, setPanel] = useState<'chat' | 'people' | 'polls' | 'live' | undefined>();
  const [layout, setLayout] = useState<'grid' | 'speaker'>('grid');
  const { state, dispatch, send, reconnect } = useRoomSocket(joined.grant, panel === 'chat');
  const cameraOn = useMemo(() => expectedCameras(state.participants), [state.participants]);
  // Admitted at once, the join answer already says where media goes: media opens beside the room
  // connection instead of waiting for its room.state (the proxy checks the grant either way).
  const isMediaOpen = state.phase === 'in-room' || (state.phase === 'connecting' && Boolean(joined.media));
  const media = useRoomMedia({
    cameraOn,
    access: state.media ?? joined.media ?? null,
    isInRoom: isMediaOpen,
    grant: joined.grant,
    participantId: joined.participant_id,
    local,
  });
  const isSharing = Boolean(media.screenTrack);
  const mediaRetry = media.retry;
  // The room's connection is back after a drop: the media in trouble rejoins now, not at its next try.
  const networkBack = media.networkBack;
  useEffect(() => {
    if (state.isSocketConnected) networkBack();
  }, [state.isSocketConnected, networkBack]);
  const rejoin = useCallback(() => {
    reconnect();
    mediaRetry();
  }, [reconnect, mediaRetry]);
  const slug = state.meeting?.slug ?? joined.meeting.slug;
  const meetingName = state.meeting?.name ?? joined.meeting.name;
  // Everyone in the room polls the broadcast for the LIVE mark; hosts also get the Live panel.
  const broadcast = useLiveBroadcast(slug, { enabled: state.phase === 'in-room', grant: joined.grant }).data;
  const isRoomHost = state.self?.role === 'host' || state.self?.role === 'cohost';
  const canGoLive = isRoomHost || broadcast?.can_manage === true;

  // Tell the room what we send, whenever it changes (and after every reconnection).
  useEffect(() => {
    if (state.phase !== 'in-room' || !state.isSocketConnected) return;
    void send({ type: 'media.state', audio: local.isAudioOn, video: local.isVideoOn, screen: isSharing });
  }, [state.phase, state.isSocketConnected, local.isAudioOn, local.isVideoOn, isSharing, send]);

  // A host muted us or stopped our video.
  useEffect(() => {
    const moderation = state.moderation;
    if (!moderation) return;
    if (moderation.action === 'mute') {
      local.setAudioOn(false);
      toast.info(t('moderation.muted', { name: moderation.by }));
    } else if (moderation.action === 'lower-hand') {
      toast.info(t('moderation.hand_lowered', { name: moderation.by }));
    } else {
      void local.setVideoOn(false);
      toast.info(t('moderation.video_stopped', { name: moderation.by }));
    }
    // Only a new moderation event acts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.moderation?.key]);

  const refusal = state.phase === 'error' || state.phase === 'ended' ? state.error : undefined;
  useEffect(() => {
    if (refusal === 'unauthorized' || refusal === 'meeting_ended') onGrantRefused(refusal === 'unauthorized');
  }, [refusal, onGrantRefused]);

  useEffect(() => {
    if (panel === 'chat') dispatch({ type: 'chat-read' });
  }, [panel, state.chat.length, dispatch]);

  useEffect(() => {
    const latest = state.reactions.at(-1);
    if (!latest) return undefined;
    const timer = setTimeout(() => dispatch({ type: 'reaction-expired', key: latest.key }), 4000);
    return () => clearTimeout(timer);
  }, [state.reactions, dispatch]);

  const toggleScreen = useCallback(() => {
    if (isSharing) media.stopScreen();
    else void media.startScreen().catch(() => toast.error(t('errors.screen_share')));
  }, [isSharing, media, t]);

  const actions = useMemo(
    () => ({
      toggleAudio: () => local.setAudioOn(!local.isAudioOn),
      toggleVideo: () => void local.setVideoOn(!local.isVideoOn),
      toggleScreen,
      toggleHand: () => void send({ type: 'hand.set', raised: !state.self?.hand_raised }),
      toggleChat: () => setPanel((current) => (current === 'chat' ? undefined : 'chat')),
    }),
    [local, toggleScreen, send, state.self?.hand_raised],
  );
  useRoomShortcuts(state.phase === 'in-room', actions);

  const onHost = useCallback(
    (message: RoomClientMessage) => {
      void send(message).then((ack) => {
        if (!ack.ok) toast.error(t(`errors.${ack.reason}`));
      });
    },
    [send, t],
  );
  useKnockToasts(state.lobby, isRoomHost && state.phase === 'in-room', onHost);
  usePollToasts(state.polls, panel === 'polls', state.self?.display_name);
  const vote = useCallback(
    async (pollId: number, choice: number) => {
      const ack = await send({ type: 'poll.vote', poll_id: pollId, choice });
      if (ack.ok) dispatch({ type: 'poll-voted', pollId, choice });
      return ack;
    },
    [send, dispatch],
  );

  const copyLink = useCallback(() => {
    const link = `${window.location.origin}${meetingRoomPath({ url_slug: slug })}`;
    void navigator.clipboard.writeText(link).then(
      () => toast.success(t('controls.link_copied')),
      () => toast.info(link),
    );
  }, [slug, t]);

  const participants = useMemo(
    () => Object.values(state.participants).sort((a, b) => a.joined_at - b.joined_at || a.id.localeCompare(b.id)),
    [state.participants],
  );
  useHandAlerts(participants, state.self?.id, isRoomHost && state.phase === 'in-room');
  const self = state.self ? { ...state.self, audio: local.isAudioOn, video: local.isVideoOn } : undefined;
  const shown = participants.map((p) => (p.id === self?.id ? self : p));
  const tiles = useMemo(
    () =>
      buildTiles(
        shown,
        joined.participant_id,
        media.feeds,
        local.isVideoOn ? local.videoTrack : undefined,
        media.screenTrack,
      ),
    [shown, joined.participant_id, media.feeds, local.isVideoOn, local.videoTrack, media.screenTrack],
  );
  const reactions = useMemo(
    () => Object.fromEntries(state.reactions.map((r) => [r.participantId, r.emoji])),
    [state.reactions],
  );

  if (state.phase === 'lobby') return <RoomNotice kind="lobby" meetingName={joined.meeting.name} onLeave={onLeave} />;
  if (state.phase === 'denied' || state.phase === 'removed' || state.phase === 'ended') {
    return <RoomNotice kind={state.phase} meetingName={joined.meeting.name} onLeave={onLeave} />;
  }
  if (state.phase === 'error')
    return <RoomNotice kind="error" reason={state.error} meetingName={joined.meeting.name} onLeave={onLeave} />;
  if (state.phase === 'connecting') {
    return (
      <div className="flex h-full items-center justify-center gap-3" role="status">
        <Spinner className="size-6" /> {t('call.connecting')}
      </div>
    );
  }

  const isReconnecting = !state.isSocketConnected || media.status === 'reconnecting';
  return (
    <div className="flex h-dvh min-h-[28rem] flex-col bg-slate-950 text-white">
      <FullScreenCall />
      <div className="flex items-center justify-between gap-2 px-4 py-2 text-sm">
        <h1 className="truncate font-semibold">{meetingName}</h1>
        <span className="flex items-center gap-3">
          <MeetingTimer startedAt={state.meeting?.started_at} />
          {broadcast?.state === 'live' && <LiveBadge isRehearsal={broadcast.rehearsal === true} />}
          {state.locked && <span className="rounded bg-amber-600 px-2 py-0.5 text-xs">{t('call.locked')}</span>}
          <span className="text-slate-300">{t('people.title_count', { count: participants.length })}</span>
        </span>
      </div>
      {isBackstage(broadcast, state.self?.id) && <BackstageNotice />}
      {(isReconnecting || media.status === 'failed' || state.error === 'media_unavailable') && (
        <ConnectionBanner
          graceSeconds={state.reconnectGraceSeconds}
          hasFailed={media.status === 'failed' || state.error === 'media_unavailable'}
          onRejoin={rejoin}
        />
      )}
      {/* Side by side from tablet width; on a phone the panel is a sheet under the stage, which keeps every tile in view. */}
      <div className="flex min-h-0 flex-1 flex-col md:flex-row">
        <main className="min-h-0 min-w-0 flex-1" aria-label={t('call.stage')}>
          <Stage
            tiles={tiles}
            layout={layout}
            talking={media.talking}
            quality={media.quality}
            health={media.health}
            sinkId={local.choice.audioOutput}
            reactions={reactions}
            preferLayer={media.preferLayer}
          />
        </main>
        {panel && (
          <aside className="relative h-[55%] shrink-0 rounded-t-xl bg-white text-slate-900 shadow-[0_-4px_12px_rgb(0_0_0/0.4)] md:h-auto md:w-80 md:rounded-none md:border-s md:border-slate-700 md:shadow-none dark:bg-slate-900 dark:text-slate-100">
            <button
              type="button"
              aria-label={t('call.close_panel')}
              onClick={() => setPanel(undefined)}
              className="absolute end-2 top-2 z-10 rounded-full p-1.5 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-slate-400 dark:hover:bg-slate-800"
            >
              <XIcon className="size-5" />
            </button>
            {panel === 'live' ? (
              <LivePanel
                meetId={slug}
                meetingTitle={meetingName}
                canStart={isRoomHost}
                room={{ grant: joined.grant, people: participants, selfId: state.self?.id }}
              />
            ) : panel === 'polls' ? (
              <PollsPanel
                polls={state.polls}
                isHost={isRoomHost}
                onAsk={(question, options) => send({ type: 'host.poll-create', question, options })}
                onVote={vote}
                onClose={(pollId) => onHost({ type: 'host.poll-close', poll_id: pollId })}
              />
            ) : panel === 'chat' ? (
              <RoomChatTabs
                meetId={slug}
                grant={joined.grant}
                hasBroadcast={canGoLive && Boolean(broadcast)}
                roomChat={
                  <ChatPanel
                    messages={state.chat}
                    selfId={state.self?.id}
                    onSend={async (text) => (await send({ type: 'chat.send', text })).ok}
                  />
                }
              />
            ) : (
              <ParticipantsPanel
                participants={raisedHandsFirst(shown)}
                lobby={state.lobby}
                self={self}
                isLocked={state.locked}
                onHost={onHost}
              />
            )}
          </aside>
        )}
      </div>
      <RoomToolbar
        isAudioOn={local.isAudioOn}
        isVideoOn={local.isVideoOn}
        isSharing={isSharing}
        isHandRaised={Boolean(state.self?.hand_raised)}
        isChatOpen={panel === 'chat'}
        isPeopleOpen={panel === 'people'}
        unreadChat={state.unreadChat}
        lobbyCount={state.lobby.length}
        raisedHands={isRoomHost ? participants.filter((p) => p.hand_raised).length : 0}
        layout={layout}
        onToggleAudio={actions.toggleAudio}
        onToggleVideo={actions.toggleVideo}
        onToggleScreen={toggleScreen}
        onToggleHand={actions.toggleHand}
        onReaction={(emoji) => void send({ type: 'reaction.send', emoji })}
        onToggleChat={actions.toggleChat}
        deviceMenu={<DeviceMenu local={local} />}
        onTogglePeople={() => setPanel((current) => (current === 'people' ? undefined : 'people'))}
        polls={{
          isOpen: panel === 'polls',
          unanswered: state.polls.filter((poll) => !poll.closed && poll.my_choice === null).length,
          onToggle: () => setPanel((current) => (current === 'polls' ? undefined : 'polls')),
        }}
        live={
          canGoLive
            ? {
                isOpen: panel === 'live',
                isOnAir: isBroadcastActive(broadcast),
                onToggle: () => setPanel((current) => (current === 'live' ? undefined : 'live')),
              }
            : undefined
        }
        onToggleLayout={() => setLayout((current) => (current === 'grid' ? 'speaker' : 'grid'))}
        onCopyLink={copyLink}
        onLeave={onLeave}
      />
    </div>
  );
}

/** While the call is on screen, the shell leaves out its sidebar and top bar. */
function FullScreenCall() {
  useEffect(() => {
    setCallView(true);
    return () => setCallView(false);
  }, []);
  return null;
}
