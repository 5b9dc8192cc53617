import { STREAMING_LIMITS, type LiveBroadcast } from '@meetcast/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { useSetOverlay, type OverlayValues } from './live-api';

/** The server's rule: an http(s) address or a path on this site. */
const isLogoAddress = (value: string) => value === '' || /^(https?:\/\/|\/)/.test(value);

const fromBroadcast = (overlay: LiveBroadcast['overlay']): OverlayValues => ({
  logo_url: overlay.logo_url ?? '',
  banner: overlay.banner ?? '',
  ticker: overlay.ticker ?? '',
});

/** What the stream shows over the meeting: a logo, a lower-third banner and a scrolling ticker. */
export function OverlayForm({ broadcast }: { broadcast: LiveBroadcast }) {
  const { t } = useTranslation('streaming');
  const overlay = useSetOverlay(broadcast.url_slug);
  const [values, setValues] = useState(() => fromBroadcast(broadcast.overlay));
  const [isChecking, setIsChecking] = useState(false);
  const trimmed = { logo_url: values.logo_url.trim(), banner: values.banner.trim(), ticker: values.ticker.trim() };
  const logoError =
    isChecking && !isLogoAddress(trimmed.logo_url)
      ? t('overlay.errors.logo_url', { https: 'https://', http: 'http://', slash: '/' })
      : undefined;
  const hasOverlay = Object.values(broadcast.overlay).some((value) => value);
  const set = (field: keyof OverlayValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setIsChecking(true);
    if (!isLogoAddress(trimmed.logo_url)) return;
    overlay.mutate(trimmed);
  };
  const onClear = () => {
    const empty = { logo_url: '', banner: '', ticker: '' };
    overlay.mutate(empty, { onSuccess: () => setValues(empty) });
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('overlay.title')} className="space-y-3">
      <TextField
        label={t('overlay.logo_url')}
        hint={t('overlay.logo_hint', { example: 'https://…' })}
        type="url"
        dir="ltr"
        inputMode="url"
        maxLength={STREAMING_LIMITS.logoUrl}
        value={values.logo_url}
        error={logoError}
        onChange={set('logo_url')}
      />
      <TextField
        label={t('overlay.banner')}
        dir="auto"
        maxLength={STREAMING_LIMITS.overlayText}
        value={values.banner}
        onChange={set('banner')}
      />
      <TextField
        label={t('overlay.ticker')}
        dir="auto"
        maxLength={STREAMING_LIMITS.overlayText}
        value={values.ticker}
        onChange={set('ticker')}
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
