import type { LiveBroadcast, OverlayImageChoice } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { useSetOverlayImage } from './live-api';

interface Option {
  choice: OverlayImageChoice;
  label: string;
  url: string | null;
}

/**
 * Which overlay image is drawn over the stream (issue 45), switched live: none, the brand kit's
 * standard overlay, or one of the kit's library; one labelled toggle button each, with the picture
 * small, the one on the stream pressed. The composer redraws as soon as the change is pushed.
 */
export function OverlayImagePicker({ broadcast }: { broadcast: LiveBroadcast }) {
  const { t } = useTranslation('streaming');
  const setImage = useSetOverlayImage(broadcast.url_slug);
  const { brand } = broadcast.overlay;
  const chosen = setImage.isPending ? setImage.variables : (broadcast.overlay.overlay_image ?? 'kit');
  const options: Option[] = [
    { choice: 'none', label: t('overlay_image.none'), url: null },
    ...(brand.overlay_url ? [{ choice: 'kit' as const, label: t('overlay_image.kit'), url: brand.overlay_url }] : []),
    ...(brand.overlays ?? []).map((overlay, index) => ({
      choice: overlay.id,
      label: t('overlay_image.item', { number: index + 1 }),
      url: overlay.url,
    })),
  ];
  // The kit's standard overlay when it has none is no overlay at all.
  const pressed = chosen === 'kit' && !brand.overlay_url ? 'none' : chosen;
  return (
    <div className="space-y-2">
      <div role="group" aria-label={t('overlay_image.title')} className="grid grid-cols-3 gap-2">
        {options.map((option) => {
          const isPressed = pressed === option.choice;
          return (
            <button
              key={String(option.choice)}
              type="button"
              aria-pressed={isPressed}
              data-overlay-choice={option.choice}
              onClick={() => !isPressed && setImage.mutate(option.choice)}
              className={`space-y-1 rounded-lg border-2 p-1 text-start text-xs focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ${
                isPressed
                  ? 'border-blue-600 bg-blue-50 font-semibold dark:border-blue-400 dark:bg-blue-950'
                  : 'border-slate-200 hover:border-slate-400 dark:border-slate-700 dark:hover:border-slate-500'
              }`}
            >
              <span className="block aspect-video overflow-hidden rounded bg-slate-800">
                {option.url && <img src={option.url} alt="" className="size-full object-contain" />}
              </span>
              <span className="block truncate px-0.5">{option.label}</span>
            </button>
          );
        })}
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {options.length > 1 ? t('overlay_image.hint') : t('overlay_image.empty')}
      </p>
    </div>
  );
}
