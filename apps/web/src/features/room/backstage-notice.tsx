import { EyeOffIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Says so in the call, all the time it lasts: the audience does not see or hear this person. */
export function BackstageNotice() {
  const { t } = useTranslation('room');
  return (
    <div
      role="status"
      data-backstage-notice
      className="mx-4 mb-2 flex items-start gap-2 rounded-lg bg-slate-800 px-3 py-2 text-sm text-white ring-1 ring-amber-400/70"
    >
      <EyeOffIcon className="mt-0.5 size-4 shrink-0 text-amber-300" aria-hidden />
      <span>
        <strong className="font-semibold">{t('backstage.notice')}</strong>{' '}
        <span className="text-slate-300">{t('backstage.notice_hint')}</span>
      </span>
    </div>
  );
}
