import { STREAMING_LIMITS, SetBroadcastOverlayInputSchema, type LiveBroadcast } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useSetOverlay, type OverlayValues } from './live-api';

const FormSchema = SetBroadcastOverlayInputSchema.pick({ logo_url: true, banner: true, ticker: true }).required();
const EMPTY: OverlayValues = { logo_url: '', banner: '', ticker: '' };

const fromBroadcast = (overlay: LiveBroadcast['overlay']): OverlayValues => ({
  logo_url: overlay.logo_url ?? '',
  banner: overlay.banner ?? '',
  ticker: overlay.ticker ?? '',
});

/** What the stream shows over the meeting: a logo, a lower-third banner and a scrolling ticker. */
export function OverlayForm({ broadcast }: { broadcast: LiveBroadcast }) {
  const { t } = useTranslation('streaming');
  const overlay = useSetOverlay(broadcast.url_slug);
  const form = useSchemaForm(FormSchema, { defaultValues: fromBroadcast(broadcast.overlay) });
  const logoError =
    form.formState.errors.logo_url && t('overlay.errors.logo_url', { https: 'https://', http: 'http://', slash: '/' });
  const hasOverlay = Boolean(broadcast.overlay.logo_url || broadcast.overlay.banner || broadcast.overlay.ticker);

  const onClear = () => overlay.mutate(EMPTY, { onSuccess: () => form.reset(EMPTY) });

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => overlay.mutate(values))}
      aria-label={t('overlay.title')}
      className="space-y-3"
    >
      <TextField
        label={t('overlay.logo_url')}
        hint={t('overlay.logo_hint', { example: 'https://…' })}
        type="url"
        dir="ltr"
        inputMode="url"
        maxLength={STREAMING_LIMITS.logoUrl}
        error={logoError}
        {...form.register('logo_url')}
      />
      <TextField
        label={t('overlay.banner')}
        dir="auto"
        maxLength={STREAMING_LIMITS.overlayText}
        {...form.register('banner')}
      />
      <TextField
        label={t('overlay.ticker')}
        dir="auto"
        maxLength={STREAMING_LIMITS.overlayText}
        {...form.register('ticker')}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button size="sm" variant="secondary" onClick={onClear} disabled={!hasOverlay || overlay.isPending}>
          {t('overlay.clear')}
        </Button>
        <Button size="sm" type="submit" isLoading={overlay.isPending}>
          {t('overlay.apply')}
        </Button>
      </div>
    </form>
  );
}
