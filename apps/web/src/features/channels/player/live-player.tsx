import {
  HeadphonesIcon,
  MaximizeIcon,
  PauseIcon,
  PictureInPicture2Icon,
  PlayIcon,
  RectangleHorizontalIcon,
  Volume2Icon,
  VolumeXIcon,
} from 'lucide-react';
import type { BroadcastViewer } from '@meetcast/contracts';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { adoptEarlyVideo, createLiveVideo } from './early-watch-slot';
import { PlayerSettings } from './player-settings';
import { SHORTCUT_KEYS, usePlayerShortcuts } from './player-shortcuts';
import { RewindBar } from './rewind-bar';
import { useTheatre } from './theatre';
import { LIVE_THRESHOLD_SECONDS, useRewindWindow } from './rewind-window';
import { useLivePlayback, type PlaybackMode } from './use-live-playback';

const CONTROL =
  'inline-flex size-11 shrink-0 items-center justify-center rounded-full text-white hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

const VIDEO_CLASS = 'aspect-video w-full bg-black';
/** The position bar appears once there is this much to go back to. */
const MIN_REWIND_SECONDS = 15;

/**
 * The player's `<video>`, put into `stage` before the first paint: the one the page's early watch is
 * already playing in the loader (early-watch.ts), or a new one. Made here rather than in JSX because
 * a new element would wait for a first frame of its own.
 */
function useLiveVideo(
  stageRef: RefObject<HTMLDivElement | null>,
  videoRef: RefObject<HTMLVideoElement | null>,
  broadcastId: number | null,
) {
  useLayoutEffect(() => {
    videoRef.current ??= adoptEarlyVideo(broadcastId) ?? createLiveVideo(VIDEO_CLASS);
    const element = videoRef.current;
    element.className = VIDEO_CLASS;
    stageRef.current?.append(element);
    // Moved out of the loader (or back in after a remount): playing again, never left paused.
    void element.play().catch(() => undefined);
    return () => element.remove();
    // The element is kept for the player's life; the broadcast is only read when it is first made.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stageRef, videoRef]);
}

function ModeNote({ mode, latency, height }: { mode: PlaybackMode; latency?: number; height?: number }) {
  const { t } = useTranslation('player');
  const parts = [t(`mode.${mode}`)];
  if (height && mode !== 'audio') parts.push(t('figures.height', { height }));
  if (latency !== undefined && mode !== 'dvr') parts.push(t('figures.latency', { seconds: latency.toFixed(1) }));
  return (
    <span data-testid="player-mode" data-mode={mode} className="truncate text-xs text-white/85">
      {parts.join(' · ')}
    </span>
  );
}

/** Sound, picture and play state of the `<video>`, followed from its events. */
function useVideoState(video: RefObject<HTMLVideoElement | null>, togglePlay: () => void) {
  const [isPaused, setPaused] = useState(false);
  const [wasPaused, setWasPaused] = useState(false);
  const [isMuted, setMuted] = useState(true);
  const [volume, setVolume] = useState(1);
  const onClick = useRef(togglePlay);
  useLayoutEffect(() => {
    onClick.current = togglePlay;
  });
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const onPlay = () => setPaused(false);
    const onPause = () => {
      setPaused(true);
      setWasPaused(true);
    };
    const onVolume = () => {
      setMuted(element.muted);
      setVolume(element.volume);
    };
    const click = () => onClick.current();
    element.addEventListener('play', onPlay);
    element.addEventListener('pause', onPause);
    element.addEventListener('volumechange', onVolume);
    element.addEventListener('click', click);
    return () => {
      element.removeEventListener('play', onPlay);
      element.removeEventListener('pause', onPause);
      element.removeEventListener('volumechange', onVolume);
      element.removeEventListener('click', click);
    };
  }, [video]);
  return { isPaused, wasPaused, setWasPaused, isMuted, volume };
}

/**
 * The live broadcast on its public page: WebRTC or HLS (use-live-playback.ts), with controls that
 * work by keyboard and say what they do (play/pause, sound, the live position and "back to live",
 * quality, theatre, fullscreen, picture-in-picture), page-wide shortcuts (player-shortcuts.ts) and a
 * quiet note of the transport, picture height and delay. Starts muted, as browsers only let a page
 * play by itself without sound, with a prompt to turn the sound on (ADR 037).
 */
export function LivePlayer({ viewer, title }: { viewer: BroadcastViewer; title: string }) {
  const { t, i18n } = useTranslation('player');
  const [frame, setFrame] = useState<HTMLDivElement | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement | null>(null);
  useLiveVideo(stage, video, viewer.broadcast_id);
  const rewindable = useRewindWindow(viewer);
  const playback = useLivePlayback(video, viewer, rewindable);
  const { mode, figures, behind } = playback;
  const theatre = useTheatre();
  const [hasChosenSound, setChosenSound] = useState(false);
  const canPip = typeof document !== 'undefined' && document.pictureInPictureEnabled;
  // Not tied to the connection's state: while the rewind playlist loads (a second or several on a busy
  // machine) the viewer's next steps back still count, and the bar shows where they are going.
  const canRewind = rewindable >= MIN_REWIND_SECONDS && !playback.isAudioOnly;

  const togglePlay = () => {
    const element = video.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => undefined);
    else element.pause();
  };
  const { isPaused, wasPaused, setWasPaused, isMuted, volume } = useVideoState(video, togglePlay);
  const toggleMute = () => {
    const element = video.current;
    if (!element) return;
    setChosenSound(true);
    element.muted = !element.muted;
    if (!element.muted && element.volume === 0) element.volume = 1;
  };
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void frame?.requestFullscreen().catch(() => undefined);
  };
  const togglePip = () => {
    if (document.pictureInPictureElement) void document.exitPictureInPicture();
    else void video.current?.requestPictureInPicture().catch(() => undefined);
  };
  const onBackToLive = () => {
    setWasPaused(false);
    playback.backToLive();
  };
  usePlayerShortcuts(
    {
      togglePlay,
      toggleMute,
      toggleFullscreen,
      toggleTheatre: theatre?.toggle,
      seekBy: canRewind ? playback.seekBy : undefined,
    },
    i18n.dir(),
  );
  const isBehind = playback.isRewound && behind >= LIVE_THRESHOLD_SECONDS;

  return (
    <div
      ref={setFrame}
      role="region"
      aria-label={t('label', { title })}
      data-testid="live-player"
      className="relative overflow-hidden bg-black sm:rounded-xl"
    >
      <div ref={stage} />
      {mode === 'connecting' && (
        <p
          role="status"
          className="absolute inset-x-0 top-0 flex aspect-video items-center justify-center text-sm text-white"
        >
          {t('connecting')}
        </p>
      )}
      {mode === 'audio' && (
        <p className="pointer-events-none absolute inset-x-0 top-0 flex aspect-video flex-col items-center justify-center gap-2 px-4 text-center text-sm text-white">
          <HeadphonesIcon className="size-10 opacity-80" aria-hidden="true" />
          {t('audio_only_note')}
        </p>
      )}
      {isMuted && !hasChosenSound && mode !== 'connecting' && (
        <button
          type="button"
          onClick={toggleMute}
          className="absolute start-3 top-3 inline-flex h-10 items-center gap-2 rounded-full bg-black/75 px-4 text-sm font-semibold text-white shadow hover:bg-black/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          <VolumeXIcon className="size-5" aria-hidden="true" />
          {t('unmute')}
        </button>
      )}
      <div className="bg-gradient-to-t from-black/90 to-black/60">
        {canRewind && <RewindBar rewindable={rewindable} behind={behind} onSeekBehind={playback.seekBehind} />}
        <div className="flex flex-wrap items-center gap-1 px-2 py-1">
          <button
            type="button"
            className={CONTROL}
            onClick={togglePlay}
            aria-label={isPaused ? t('play') : t('pause')}
            aria-keyshortcuts={SHORTCUT_KEYS.play}
          >
            {isPaused ? <PlayIcon className="size-5" /> : <PauseIcon className="size-5" />}
          </button>
          <button
            type="button"
            className={CONTROL}
            onClick={toggleMute}
            aria-pressed={isMuted}
            aria-label={t('mute')}
            aria-keyshortcuts={SHORTCUT_KEYS.mute}
          >
            {isMuted ? <VolumeXIcon className="size-5" /> : <Volume2Icon className="size-5" />}
          </button>
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={isMuted ? 0 : volume}
            aria-label={t('volume')}
            className="w-16 accent-red-500 sm:w-24"
            onChange={(event) => {
              const element = video.current;
              if (!element) return;
              setChosenSound(true);
              element.volume = Number(event.target.value);
              element.muted = element.volume === 0;
            }}
          />
          {(wasPaused || isBehind) && (
            <button
              type="button"
              onClick={onBackToLive}
              className="ms-1 h-9 rounded-full bg-red-600 px-3 text-xs font-semibold text-white hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
            >
              {t('back_to_live')}
            </button>
          )}
          <div className="ms-auto flex min-w-0 items-center gap-1">
            <ModeNote mode={mode} latency={figures.latency} height={figures.height} />
            <PlayerSettings
              isAudioOnly={playback.isAudioOnly}
              onAudioOnly={playback.setAudioOnly}
              container={frame}
              buttonClass={CONTROL}
            />
            {canPip && mode !== 'audio' && (
              <button type="button" className={`${CONTROL} max-sm:hidden`} onClick={togglePip} aria-label={t('pip')}>
                <PictureInPicture2Icon className="size-5" />
              </button>
            )}
            {theatre && (
              <button
                type="button"
                className={`${CONTROL} max-lg:hidden`}
                onClick={theatre.toggle}
                aria-pressed={theatre.isOn}
                aria-label={t('theatre')}
                aria-keyshortcuts={SHORTCUT_KEYS.theatre}
              >
                <RectangleHorizontalIcon className="size-5" />
              </button>
            )}
            <button
              type="button"
              className={CONTROL}
              onClick={toggleFullscreen}
              aria-label={t('fullscreen')}
              aria-keyshortcuts={SHORTCUT_KEYS.fullscreen}
            >
              <MaximizeIcon className="size-5" />
            </button>
          </div>
        </div>
      </div>
      <p className="sr-only" aria-live="polite">
        {mode === 'connecting' ? '' : t(`mode.${mode}`)}
      </p>
    </div>
  );
}
