import { HandIcon, MicOffIcon, SignalIcon } from 'lucide-react';
import type { Participant } from '@meetcast/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import type { Quality, RemoteFeed } from './media/media-types';
import type { FeedHealth } from './media/media-watchdog';
import { bestColumns, commonAspect } from './stage-grid';
import { VideoView } from './video-view';

export interface Tile {
  key: string;
  participant: Participant;
  kind: 'camera' | 'screen';
  stream?: MediaStream;
  track?: MediaStreamTrack;
  isSelf: boolean;
  feedId?: number;
}

const QUALITY_CLASS: Record<Quality, string> = {
  good: 'text-emerald-400',
  fair: 'text-amber-400',
  poor: 'text-red-500',
};

function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

function VideoTile({
  tile,
  isSpeaking,
  quality,
  health,
  sinkId,
  reaction,
  className,
  onAspect,
}: {
  tile: Tile;
  isSpeaking: boolean;
  quality: Quality | undefined;
  /** The media watchdog is repairing this camera (or gave up): the tile says so. */
  health: FeedHealth | undefined;
  sinkId: string | undefined;
  reaction: string | undefined;
  className?: string;
  onAspect: (key: string, ratio: number) => void;
}) {
  const { t } = useTranslation('room');
  const { participant } = tile;
  const onVideoAspect = useCallback((ratio: number) => onAspect(tile.key, ratio), [onAspect, tile.key]);
  const name =
    tile.kind === 'screen' ? t('tile.screen_of', { name: participant.display_name }) : participant.display_name;
  // Their connections dropped: the seat waits for them (ADR 032), the tile says so instead of a repair.
  const healthText = participant.reconnecting
    ? t('tile.reconnecting')
    : health
      ? t(`tile.health_${tile.isSelf ? 'self_' : ''}${health}`)
      : '';
  const hasVideo =
    tile.kind === 'screen' ||
    (tile.isSelf ? Boolean(tile.track) : participant.video && Boolean(tile.stream?.getVideoTracks().length));
  const label = [
    name,
    tile.isSelf ? t('tile.you') : '',
    !participant.audio && tile.kind === 'camera' ? t('tile.muted') : '',
    participant.hand_raised ? t('tile.hand_raised') : '',
    quality ? t(`tile.quality_${quality}`) : '',
    healthText,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <figure
      aria-label={label}
      data-participant={participant.id}
      data-kind={tile.kind}
      className={cn(
        'relative min-h-0 overflow-hidden rounded-xl bg-slate-800 ring-2 ring-transparent transition-shadow',
        isSpeaking && 'ring-emerald-400',
        className,
      )}
    >
      {hasVideo ? (
        <VideoView
          stream={tile.stream}
          track={tile.track}
          isMuted={tile.isSelf}
          isMirrored={tile.isSelf && tile.kind === 'camera'}
          sinkId={sinkId}
          onAspect={onVideoAspect}
        />
      ) : (
        <div className="flex size-full items-center justify-center">
          <span className="flex size-20 items-center justify-center rounded-full bg-primary-600 text-2xl font-bold text-white">
            {initials(participant.display_name)}
          </span>
          {/* Audio keeps playing while the camera is off. */}
          {tile.stream && !tile.isSelf && <VideoView stream={tile.stream} className="hidden" sinkId={sinkId} />}
        </div>
      )}
      <figcaption className="absolute inset-x-2 bottom-2 flex items-center gap-1.5 text-sm text-white">
        <span className="truncate rounded bg-black/60 px-2 py-0.5">
          {name}
          {tile.isSelf && ` (${t('tile.you')})`}
        </span>
        {tile.kind === 'camera' && !participant.audio && (
          <MicOffIcon className="size-5 rounded bg-red-600/90 p-0.5" aria-hidden />
        )}
        {participant.hand_raised && <HandIcon className="size-5 rounded bg-amber-500 p-0.5" aria-hidden />}
        {quality && !tile.isSelf && <SignalIcon className={cn('size-4', QUALITY_CLASS[quality])} aria-hidden />}
      </figcaption>
      {healthText && (
        <p
          role="status"
          data-health={participant.reconnecting ? 'reconnecting' : health}
          className={cn(
            'absolute inset-x-2 top-2 w-fit max-w-[calc(100%-1rem)] rounded px-2 py-0.5 text-xs text-white',
            health === 'failed' ? 'bg-red-700/90' : 'bg-black/70',
          )}
        >
          {healthText}
        </p>
      )}
      {reaction && (
        <span className="pointer-events-none absolute end-3 top-3 animate-bounce text-4xl" aria-hidden>
          {reaction}
        </span>
      )}
    </figure>
  );
}

export function buildTiles(
  participants: Participant[],
  selfId: string,
  feeds: RemoteFeed[],
  localVideo: MediaStreamTrack | undefined,
  screenTrack: MediaStreamTrack | undefined,
): Tile[] {
  const tiles: Tile[] = [];
  for (const participant of participants) {
    const isSelf = participant.id === selfId;
    const camera = feeds.find((f) => f.participantId === participant.id && f.kind === 'camera');
    tiles.push({
      key: `${participant.id}:camera`,
      participant,
      kind: 'camera',
      isSelf,
      stream: isSelf ? undefined : camera?.stream,
      track: isSelf ? localVideo : undefined,
      feedId: camera?.feedId,
    });
    const screen = feeds.find((f) => f.participantId === participant.id && f.kind === 'screen');
    if (isSelf && screenTrack)
      tiles.push({ key: `${participant.id}:screen`, participant, kind: 'screen', isSelf, track: screenTrack });
    if (!isSelf && screen) {
      tiles.push({
        key: `${participant.id}:screen`,
        participant,
        kind: 'screen',
        isSelf,
        stream: screen.stream,
        feedId: screen.feedId,
      });
    }
  }
  return tiles;
}

/** Grid or speaker layout; the speaker is the latest to talk, a shared screen takes the stage. */
export function Stage({
  tiles,
  layout,
  talking,
  quality,
  health,
  sinkId,
  reactions,
  preferLayer,
}: {
  tiles: Tile[];
  layout: 'grid' | 'speaker';
  talking: Record<string, number>;
  quality: Record<string, Quality>;
  health: Record<string, FeedHealth>;
  sinkId: string | undefined;
  reactions: Record<string, string>;
  preferLayer: (feedId: number, layer: 0 | 1 | 2) => void;
}) {
  const main = useMemo(() => {
    // A shared screen takes the stage in either layout: it is what everyone came to read.
    const screen =
      tiles.find((tile) => tile.kind === 'screen' && !tile.isSelf) ?? tiles.find((t) => t.kind === 'screen');
    if (screen) return screen;
    if (layout !== 'speaker' || tiles.length === 0) return undefined;
    const speakers = tiles
      .filter((tile) => !tile.isSelf && talking[tile.participant.id])
      .sort((a, b) => (talking[b.participant.id] ?? 0) - (talking[a.participant.id] ?? 0));
    return speakers[0] ?? tiles.find((tile) => !tile.isSelf) ?? tiles[0];
  }, [layout, tiles, talking]);

  // Each subscriber asks for the simulcast layer that fits the tile it shows.
  useEffect(() => {
    for (const tile of tiles) {
      if (tile.feedId === undefined) continue;
      const layer: 0 | 1 | 2 = main ? (tile === main ? 2 : 0) : tiles.length <= 4 ? 2 : tiles.length <= 9 ? 1 : 0;
      preferLayer(tile.feedId, layer);
    }
  }, [tiles, main, preferLayer]);

  // The grid plans its columns for the stage's size and the videos' ratio, so pictures stay large.
  const [aspects, setAspects] = useState<Record<string, number>>({});
  const onAspect = useCallback(
    (key: string, ratio: number) =>
      setAspects((current) => (current[key] === ratio ? current : { ...current, [key]: ratio })),
    [],
  );
  const gridRef = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const element = gridRef.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [main]);
  const shownAspects = tiles.flatMap((tile) => (aspects[tile.key] ? [aspects[tile.key]!] : []));

  const render = (tile: Tile, className?: string) => (
    <VideoTile
      key={tile.key}
      tile={tile}
      isSpeaking={Boolean(talking[tile.participant.id]) && tile.kind === 'camera'}
      quality={quality[tile.participant.id]}
      health={tile.kind === 'camera' ? health[tile.participant.id] : undefined}
      sinkId={sinkId}
      reaction={tile.kind === 'camera' ? reactions[tile.participant.id] : undefined}
      className={className}
      onAspect={onAspect}
    />
  );

  if (main) {
    const others = tiles.filter((tile) => tile !== main);
    // A shared screen keeps the cameras in a strip beside it on a wide stage (at its end side, so
    // on the left in a right-to-left language) and below it on a narrow one.
    const isScreen = main.kind === 'screen';
    return (
      <div
        data-stage={isScreen ? 'screen' : 'speaker'}
        className={cn('flex size-full min-h-0 flex-col gap-2 p-2', isScreen && 'md:flex-row')}
      >
        <div className="min-h-0 min-w-0 flex-1">{render(main, 'size-full')}</div>
        {others.length > 0 && (
          <div
            data-strip
            className={cn(
              'flex h-28 shrink-0 gap-2 overflow-x-auto',
              isScreen && 'md:h-auto md:w-56 md:flex-col md:overflow-x-hidden md:overflow-y-auto',
            )}
          >
            {others.map((tile) => render(tile, cn('aspect-video h-full shrink-0', isScreen && 'md:h-auto md:w-full')))}
          </div>
        )}
      </div>
    );
  }
  const columns = bestColumns(tiles.length, size.width, size.height, commonAspect(shownAspects));
  return (
    <div
      ref={gridRef}
      data-columns={columns}
      className="grid size-full min-h-0 auto-rows-fr gap-2 p-2"
      style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
    >
      {tiles.map((tile) => render(tile))}
    </div>
  );
}
