import {
  NAME_TAG_STYLES,
  peopleCalls,
  type BrandImageKind,
  type BrandKit,
  type NameTagStyle,
} from '@meetcast/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2Icon } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { ImageUpload } from '../../components/image-upload';
import { api } from '../../lib/api';
import { nameTagLook, textColourOn } from '../../lib/brand-look';
import { BrandOverlayLibrary } from './brand-overlay-library';

const BRAND_KIT_KEY = ['brand-kit'] as const;

/** A small 16:9 picture of what the broadcast wears: background, overlay, logo, a name tag and a banner. */
function BrandPreview({ kit, accent, style }: { kit: BrandKit; accent: string; style: NameTagStyle }) {
  const { t } = useTranslation('channels');
  const look = nameTagLook(style, accent);
  return (
    <figure className="m-0 space-y-1">
      <div
        data-brand-preview
        className="relative aspect-video w-full max-w-md overflow-hidden rounded-xl bg-slate-950 bg-cover bg-center text-[11px] text-white"
        style={kit.background_url ? { backgroundImage: `url("${kit.background_url}")` } : undefined}
      >
        <div className="absolute inset-[8%] bottom-[24%] rounded-lg bg-slate-700">
          <span
            dir="auto"
            className={`absolute start-[4%] bottom-[6%] leading-tight ${look.className}`}
            style={look.style}
          >
            {t('brand.sample_name')}
          </span>
        </div>
        {kit.overlay_url && <img src={kit.overlay_url} alt="" className="absolute inset-0 size-full" />}
        {kit.logo_url && (
          <img
            src={kit.logo_url}
            alt=""
            className="absolute end-[5%] top-[5%] max-h-[11%] max-w-[15%] object-contain"
          />
        )}
        <div
          dir="auto"
          className="absolute inset-x-[5%] bottom-[5%] truncate rounded-md px-2 py-1 font-semibold"
          style={{ backgroundColor: accent, color: textColourOn(accent) }}
        >
          {t('brand.sample_banner')}
        </div>
      </div>
      <figcaption className="text-xs text-slate-600 dark:text-slate-400">{t('brand.preview')}</figcaption>
    </figure>
  );
}

/**
 * The channel's brand kit (ADR 046): accent colour, name-tag style, three uploaded pictures and the
 * overlay library (issue 45), saved with the channel and worn by every broadcast its owner makes; a
 * live one redraws at once.
 */
export function BrandKitPanel() {
  const { t } = useTranslation('channels');
  const colourId = useId();
  const queryClient = useQueryClient();
  const kit = useQuery({
    queryKey: BRAND_KIT_KEY,
    queryFn: async ({ signal }) => (await api.call(peopleCalls.getBrandKit, {}, { signal })).data,
  });
  // What the person picked and has not saved yet; the saved kit otherwise.
  const [pickedAccent, setAccent] = useState<string>();
  const [pickedStyle, setStyle] = useState<NameTagStyle>();
  const accent = pickedAccent ?? kit.data?.accent_color;
  const style = pickedStyle ?? kit.data?.name_tag_style;
  const keep = (body: { data: BrandKit }) => queryClient.setQueryData(BRAND_KIT_KEY, body.data);
  const save = useMutation({
    mutationFn: () => api.call(peopleCalls.updateBrandKit, { accent_color: accent, name_tag_style: style }),
    onSuccess: (body) => {
      keep(body);
      toast.success(body.message);
    },
  });
  const remove = useMutation({
    mutationFn: (kind: BrandImageKind) => api.call(peopleCalls.removeBrandImage, { kind }),
    onSuccess: (body) => {
      keep(body);
      toast.success(body.message);
    },
  });
  if (!kit.data || !accent || !style) return null;
  const pictures: { kind: BrandImageKind; url: string | null }[] = [
    { kind: 'logo', url: kit.data.logo_url },
    { kind: 'background', url: kit.data.background_url },
    { kind: 'overlay', url: kit.data.overlay_url },
  ];

  return (
    <Panel id="brand-kit" title={t('brand.title')} description={t('brand.hint')}>
      <div className="space-y-6">
        <BrandPreview kit={kit.data} accent={accent} style={style} />
        <div className="flex flex-wrap items-end gap-6">
          <div className="space-y-1.5">
            <label htmlFor={colourId} className="block text-sm font-medium">
              {t('brand.accent')}
            </label>
            <div className="flex items-center gap-2">
              <input
                id={colourId}
                type="color"
                value={accent}
                onChange={(event) => setAccent(event.target.value)}
                className="h-10 w-14 cursor-pointer rounded-md border border-slate-300 bg-white p-1 dark:border-slate-700 dark:bg-slate-900"
              />
              <span dir="ltr" className="font-mono text-sm">
                {accent}
              </span>
            </div>
          </div>
          <div className="space-y-1.5">
            <span id={`${colourId}-tags`} className="block text-sm font-medium">
              {t('brand.name_tags')}
            </span>
            <div role="group" aria-labelledby={`${colourId}-tags`} className="flex flex-wrap gap-2">
              {NAME_TAG_STYLES.map((option) => (
                <Button
                  key={option}
                  size="sm"
                  variant={style === option ? 'primary' : 'secondary'}
                  aria-pressed={style === option}
                  onClick={() => setStyle(option)}
                >
                  {t(`brand.style_${option}`)}
                </Button>
              ))}
            </div>
          </div>
          <Button isLoading={save.isPending} onClick={() => save.mutate()}>
            {t('brand.save')}
          </Button>
        </div>
        {pictures.map(({ kind, url }) => (
          <ImageUpload
            key={kind}
            label={t(`brand.upload_${kind}`)}
            hint={t(`brand.rules_${kind}`)}
            tooLarge={t('edit.too_large')}
            preview={
              <div className="flex h-16 w-28 items-center justify-center overflow-hidden rounded-lg bg-slate-200 dark:bg-slate-800">
                {url && (
                  <img src={url} alt={t(`brand.current_${kind}`)} className="max-h-full max-w-full object-contain" />
                )}
              </div>
            }
            upload={async (file) => {
              const body = await api.call(peopleCalls.uploadBrandImage, { kind, file });
              keep(body);
              return body;
            }}
            extra={
              url && (
                <Button
                  variant="secondary"
                  isLoading={remove.isPending && remove.variables === kind}
                  onClick={() => remove.mutate(kind)}
                >
                  <Trash2Icon className="size-4" aria-hidden />
                  {t(`brand.remove_${kind}`)}
                </Button>
              )
            }
          />
        ))}
        <BrandOverlayLibrary kit={kit.data} onSaved={(saved) => queryClient.setQueryData(BRAND_KIT_KEY, saved)} />
      </div>
    </Panel>
  );
}
