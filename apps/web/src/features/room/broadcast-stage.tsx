import type { BroadcastLayout, BroadcastOverlay, BrandKit } from '@meetcast/contracts';
import { MicOffIcon } from 'lucide-react';
import { useEffect, useMemo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { nameTagLook, textColourOn } from '../../lib/brand-look';
import { planBroadcastLayout, safeTagAnchor, type PlacedTile } from './broadcast-layout';
import type { Tile } from './stage';
import { VideoView } from './video-view';

/** Shares of the frame's height (ADR 039): name tags ~3.5 % high, the banner and ticker in their band. */
const TAG_FONT_SHARE = 0.022;
const BANNER_SHARE = 0.1;
const TICKER_SHARE = 0.06;

function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

/** The size of the window the composer's screen shows (1280×720 or 1920×1080). */
function useFrameSize() {
  const [size, setSize] = useState({ width: window.innerWidth, height: window.innerHeight });
  useEffect(() => {
    const onResize = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}

/** The band kept at the bottom for the banner and the ticker: the tiles stand above it. */
export function bottomBandOf(overlay: BroadcastOverlay, height: number) {
  const banner = overlay.banner ? Math.round(height * BANNER_SHARE) : 0;
  const ticker = overlay.ticker ? Math.round(height * TICKER_SHARE) : 0;
  return { banner, ticker, total: banner + ticker };
}

function BroadcastTile({
  tile,
  placed,
  frame,
  band,
  brand,
}: {
  tile: Tile;
  placed: PlacedTile | undefined;
  frame: { width: number; height: number };
  band: number;
  brand: BrandKit;
}) {
  const { t } = useTranslation('room');
  const { participant } = tile;
  const name =
    tile.kind === 'screen' ? t('tile.screen_of', { name: participant.display_name }) : participant.display_name;
  const hasVideo = tile.kind === 'screen' || (participant.video && Boolean(tile.stream?.getVideoTracks().length));
  // A tile the layout leaves out stays mounted and invisible: its sound is everyone's sound on the stream.
  // A layout change is a cut (ADR 039): the tiles jump to their new places in the next painted frame.
  // The 180-ms move it replaced spent a third of the 500-ms budget and sent its in-between frames
  // through the encode, which the receiver then showed as the "new" picture only once it settled.
  const style: CSSProperties = placed
    ? { left: placed.x, top: placed.y, width: placed.width, height: placed.height }
    : { left: 0, top: 0, width: 1, height: 1, opacity: 0 };
  const tag = placed && safeTagAnchor(placed, frame.width, frame.height, band);
  const fontSize = Math.round(frame.height * TAG_FONT_SHARE);
  // Small strip tiles keep their initials clear of the name tag.
  const avatar = Math.min(fontSize * 4, Math.round((placed?.height ?? 0) * 0.4));
  const look = nameTagLook(brand.name_tag_style, brand.accent_color);
  return (
    <figure
      data-participant={participant.id}
      data-kind={tile.kind}
      data-shown={placed ? 'true' : 'false'}
      className="absolute m-0 overflow-hidden rounded-xl bg-slate-800"
      style={style}
    >
      {hasVideo ? (
        <VideoView stream={tile.stream} className={placed?.fit === 'contain' ? 'bg-black' : 'object-cover!'} />
      ) : (
        <div className="flex size-full items-center justify-center">
          <span
            className="flex items-center justify-center rounded-full bg-primary-600 font-bold text-white"
            style={{ width: avatar, height: avatar, fontSize: avatar * 0.38 }}
          >
            {initials(participant.display_name)}
          </span>
          {tile.stream && <VideoView stream={tile.stream} className="hidden" />}
        </div>
      )}
      {tag && (
        <figcaption
          data-name-tag={brand.name_tag_style}
          dir="auto"
          className={`absolute flex max-w-[90%] items-center gap-[0.3em] truncate leading-tight ${look.className}`}
          style={{
            ...look.style,
            fontSize,
            left: tag.start - placed.x,
            bottom: placed.y + placed.height - tag.bottom,
          }}
        >
          {tile.kind === 'camera' && !participant.audio && (
            <MicOffIcon className="size-[1em] text-red-400" aria-hidden />
          )}
          <span className="truncate">{name}</span>
        </figcaption>
      )}
    </figure>
  );
}

/**
 * The broadcast's picture (ADR 039): the tiles where planBroadcastLayout puts them, moved (not
 * reloaded) when the host changes the layout; the banner and the ticker in a band of their own below.
 */
export function BroadcastStage({
  tiles,
  layout,
  overlay,
  featuredKey,
}: {
  tiles: Tile[];
  layout: BroadcastLayout;
  overlay: BroadcastOverlay;
  featuredKey: string | undefined;
}) {
  const frame = useFrameSize();
  const band = bottomBandOf(overlay, frame.height);
  const { brand } = overlay;
  const logo = overlay.logo_url ?? brand.logo_url;
  // The overlay image the host picked (issue 45); a server that does not say draws the kit's one.
  const overlayImage = overlay.overlay_image_url === undefined ? brand.overlay_url : overlay.overlay_image_url;
  const placed = useMemo(
    () =>
      new Map(
        planBroadcastLayout({
          tiles: tiles.map(({ key, kind }) => ({ key, kind })),
          layout,
          featuredKey,
          width: frame.width,
          height: frame.height,
          bottomBand: band.total,
        }).map((rect) => [rect.key, rect]),
      ),
    [tiles, layout, featuredKey, frame.width, frame.height, band.total],
  );
  return (
    <div
      data-layout={layout}
      className="absolute inset-0 bg-cover bg-center"
      style={brand.background_url ? { backgroundImage: `url("${brand.background_url}")` } : undefined}
    >
      {tiles.map((tile) => (
        <BroadcastTile
          key={tile.key}
          tile={tile}
          placed={placed.get(tile.key)}
          frame={frame}
          band={band.total}
          brand={brand}
        />
      ))}
      {overlayImage && (
        <img
          key={overlayImage}
          data-brand-overlay
          src={overlayImage}
          alt=""
          className="pointer-events-none absolute inset-0 size-full"
        />
      )}
      {logo && (
        <img
          data-logo
          src={logo}
          alt=""
          className="absolute end-[5%] top-[5%] max-h-[11%] max-w-[15%] object-contain"
        />
      )}
      {overlay.banner && (
        <div
          data-banner
          dir="auto"
          className="absolute inset-x-[5%] flex items-center truncate rounded-lg px-[1.2em] font-semibold shadow-lg"
          style={{
            backgroundColor: brand.accent_color,
            color: textColourOn(brand.accent_color),
            bottom: band.ticker + Math.round(frame.height * 0.012),
            height: band.banner - Math.round(frame.height * 0.024),
            fontSize: Math.round(band.banner * 0.38),
          }}
        >
          {overlay.banner}
        </div>
      )}
      {overlay.ticker && (
        <div
          data-ticker
          className="absolute inset-x-0 bottom-0 flex items-center overflow-hidden bg-black text-white"
          style={{
            height: band.ticker,
            fontSize: Math.round(band.ticker * 0.5),
            borderTop: `${Math.max(2, Math.round(band.ticker * 0.08))}px solid ${brand.accent_color}`,
          }}
        >
          <div className="animate-ticker whitespace-nowrap">{overlay.ticker}</div>
        </div>
      )}
    </div>
  );
}
