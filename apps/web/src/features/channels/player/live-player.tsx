import { MaximizeIcon, PauseIcon, PictureInPicture2Icon, PlayIcon, Volume2Icon, VolumeXIcon } from 'lucide-react';
import type { BroadcastViewer } from '@meetcast/contracts';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { adoptEarlyVideo, createLiveVideo } from './early-watch-slot';
import { useLivePlayback, type PlaybackMode } from './use-live-playback';

const CONTROL =
  'inline-flex size-11 shrink-0 items-center justify-center rounded-full text-white hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

const VIDEO_CLASS = 'aspect-video w-full bg-black';

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
  if (height) parts.push(t('figures.height', { height }));
  if (latency !== undefined) parts.push(t('figures.latency', { seconds: latency.toFixed(1) }));
  return (
    <span data-testid="player-mode" data-mode={mode} className="truncate text-xs text-white/85">
      {parts.join(' · ')}
    </span>
  );
}

/**
 * The live broadcast on its public page: WebRTC or HLS (use-live-playback.ts), with controls that
 * work by keyboard and say what they do (play/pause, sound, fullscreen, picture-in-picture, back to
 * live) and a quiet note of the transport, picture height and delay. Starts muted: browsers only
 * let a page play sound by itself after the viewer asked for it.
 */
export function LivePlayer({ viewer, title }: { viewer: BroadcastViewer; title: string }) {
  const { t } = useTranslation('player');
  const frame = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement | null>(null);
  useLiveVideo(stage, video, viewer.broadcast_id);
  const { mode, figures, backToLive } = useLivePlayback(video, viewer);
  const [isPaused, setPaused] = useState(false);
  const [wasPaused, setWasPaused] = useState(false);
  const [isMuted, setMuted] = useState(true);
  const [volume, setVolume] = useState(1);
  const canPip = typeof document !== 'undefined' && document.pictureInPictureEnabled;

  const togglePlay = () => {
    const element = video.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => undefined);
    else element.pause();
  };
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
    const onClick = () => togglePlay();
    element.addEventListener('play', onPlay);
    element.addEventListener('pause', onPause);
    element.addEventListener('volumechange', onVolume);
    element.addEventListener('click', onClick);
    return () => {
      element.removeEventListener('play', onPlay);
      element.removeEventListener('pause', onPause);
      element.removeEventListener('volumechange', onVolume);
      element.removeEventListener('click', onClick);
    };
  }, [video]);

  const toggleMute = () => {
    const element = video.current;
    if (element) element.muted = !element.muted;
  };
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void frame.current?.requestFullscreen().catch(() => undefined);
  };
  const togglePip = () => {
    if (document.pictureInPictureElement) void document.exitPictureInPicture();
    else void video.current?.requestPictureInPicture().catch(() => undefined);
  };
  const onBackToLive = () => {
    setWasPaused(false);
    backToLive();
  };
  // Keys while the player has focus, as in common video players (k/space, m, f).
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    const actions: Record<string, () => void> = { ' ': togglePlay, k: togglePlay, m: toggleMute, f: toggleFullscreen };
    const action = actions[event.key.toLowerCase()];
    if (!action) return;
    event.preventDefault();
    action();
  };

  return (
    <div
      ref={frame}
      role="region"
      aria-label={t('label', { title })}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="relative overflow-hidden rounded-xl bg-black focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-500"
    >
      <div ref={stage} />
      {mode === 'connecting' && (
        <p role="status" className="absolute inset-0 flex items-center justify-center text-sm text-white">
          {t('connecting')}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-1 bg-gradient-to-t from-black/90 to-black/60 px-2 py-1">
        <button type="button" className={CONTROL} onClick={togglePlay} aria-label={isPaused ? t('play') : t('pause')}>
          {isPaused ? <PlayIcon className="size-5" /> : <PauseIcon className="size-5" />}
        </button>
        <button type="button" className={CONTROL} onClick={toggleMute} aria-pressed={isMuted} aria-label={t('mute')}>
          {isMuted ? <VolumeXIcon className="size-5" /> : <Volume2Icon className="size-5" />}
        </button>
        <input
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={isMuted ? 0 : volume}
          aria-label={t('volume')}
          className="w-20 accent-red-500 sm:w-28"
          onChange={(event) => {
            const element = video.current;
            if (!element) return;
            element.volume = Number(event.target.value);
            element.muted = element.volume === 0;
          }}
        />
        {wasPaused && (
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
          {canPip && (
            <button type="button" className={CONTROL} onClick={togglePip} aria-label={t('pip')}>
              <PictureInPicture2Icon className="size-5" />
            </button>
          )}
          <button type="button" className={CONTROL} onClick={toggleFullscreen} aria-label={t('fullscreen')}>
            <MaximizeIcon className="size-5" />
          </button>
        </div>
      </div>
      <p className="sr-only" aria-live="polite">
        {mode === 'connecting' ? '' : t(`mode.${mode}`)}
      </p>
    </div>
  );
}
