import { BRAND_OVERLAY_LIBRARY_LIMIT, peopleCalls, type BrandKit } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { Trash2Icon } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { ImageUpload } from '../../components/image-upload';
import { api } from '../../lib/api';

/**
 * The brand kit's overlay library (issue 45): up to 10 images, each shown small with its number and
 * a remove button; the host switches between them on the stream from the studio's Live panel.
 */
export function BrandOverlayLibrary({ kit, onSaved }: { kit: BrandKit; onSaved(kit: BrandKit): void }) {
  const { t } = useTranslation('channels');
  const headingId = useId();
  const overlays = kit.overlays ?? [];
  const isFull = overlays.length >= BRAND_OVERLAY_LIBRARY_LIMIT;
  const remove = useMutation({
    mutationFn: (id: number) => api.call(peopleCalls.removeBrandOverlay, { id }),
    onSuccess: (body) => {
      onSaved(body.data);
      toast.success(body.message);
    },
  });
  return (
    <section aria-labelledby={headingId} className="space-y-3" data-overlay-library>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold">
          {t('brand.library_title')}
        </h3>
        <span className="text-xs text-slate-600 dark:text-slate-400">
          {t('brand.library_count', { used: overlays.length, max: BRAND_OVERLAY_LIBRARY_LIMIT })}
        </span>
      </div>
      {overlays.length > 0 && (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {overlays.map((overlay, index) => (
            <li key={overlay.id} className="space-y-1.5">
              {/* A checkerboard behind the picture shows where it is transparent. */}
              <div className="aspect-video overflow-hidden rounded-lg bg-slate-300 bg-[length:16px_16px] bg-[linear-gradient(45deg,#94a3b8_25%,transparent_25%,transparent_75%,#94a3b8_75%),linear-gradient(45deg,#94a3b8_25%,transparent_25%,transparent_75%,#94a3b8_75%)] bg-[position:0_0,8px_8px] dark:bg-slate-700">
                <img
                  src={overlay.url}
                  alt={t('brand.library_item', { number: index + 1 })}
                  className="size-full object-contain"
                />
              </div>
              <Button
                size="sm"
                variant="secondary"
                isLoading={remove.isPending && remove.variables === overlay.id}
                onClick={() => remove.mutate(overlay.id)}
              >
                <Trash2Icon className="size-4" aria-hidden />
                {t('brand.library_remove', { number: index + 1 })}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {isFull ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('brand.library_full')}</p>
      ) : (
        <ImageUpload
          label={t('brand.library_add')}
          hint={t('brand.library_hint', { max: BRAND_OVERLAY_LIBRARY_LIMIT })}
          tooLarge={t('edit.too_large')}
          preview={null}
          upload={async (file) => {
            const body = await api.call(peopleCalls.addBrandOverlay, { file });
            onSaved(body.data);
            return body;
          }}
        />
      )}
    </section>
  );
}
