import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCountdown, secondsLeft, type SceneOnAir } from './broadcast-scene';

/** Short enough to be a cut on the receiver, long enough not to flash (ADR 042). */
const FADE_MS = 250;

const isSameScene = (a: SceneOnAir, b: SceneOnAir | null) =>
  b !== null && a.scene === b.scene && a.message === b.message && a.countdownTo === b.countdownTo;

/** The clock while a countdown runs, read four times a second so each second turns over on time. */
function useNowMs(isTicking: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!isTicking) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [isTicking]);
  return now;
}

/**
 * A holding screen over the whole frame (ADR 042): the scene's title in large type, the host's message,
 * the countdown, and the meeting's title, on a plain dark background. Always mounted and faded in and
 * out, so a change is a cut without a reload; the people stay mounted below it and their sound plays on.
 */
export function BroadcastSceneScreen({ scene, meetingTitle }: { scene: SceneOnAir | null; meetingTitle: string }) {
  const { t } = useTranslation('streaming');
  // The last scene shown stays drawn while it fades out (kept from the render that had it).
  const [shown, setShown] = useState(scene);
  if (scene && !isSameScene(scene, shown)) setShown(scene);
  const countdownTo = shown?.countdownTo ?? null;
  const now = useNowMs(scene !== null && countdownTo !== null);
  const left = countdownTo === null ? null : secondsLeft(countdownTo, now);
  const kind = shown?.scene ?? 'starting_soon';

  return (
    <div
      data-scene={scene?.scene ?? 'live'}
      aria-hidden={scene === null}
      className="absolute inset-0 flex flex-col items-center justify-center bg-slate-900 px-[8%] text-center text-white"
      style={{
        opacity: scene ? 1 : 0,
        transition: `opacity ${FADE_MS}ms linear`,
        // Above the tiles and the overlay's band: the card is the whole picture.
        zIndex: 10,
      }}
    >
      <p dir="auto" className="mb-[2.5vh] max-w-full truncate text-[3.2vh] font-medium text-slate-400">
        {meetingTitle}
      </p>
      <h1 className="m-0 text-[11vh] leading-tight font-bold tracking-tight">{t(`scene.screen.${kind}`)}</h1>
      {shown?.message && (
        <p dir="auto" className="mt-[3vh] line-clamp-2 max-w-full text-[4.5vh] text-slate-200">
          {shown.message}
        </p>
      )}
      {left !== null && (
        <p data-countdown className="mt-[5vh] text-[6vh] font-semibold text-primary-300 tabular-nums">
          {left > 0
            ? t(`scene.screen.countdown_${kind}`, { time: formatCountdown(left) })
            : t(`scene.screen.done_${kind}`)}
        </p>
      )}
    </div>
  );
}
