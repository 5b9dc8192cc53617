import { CopyIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';

/** The public address of a channel or broadcast, with a copy button and the usual places to share it. */
export function ShareLinks({ path, title }: { path: string; title: string }) {
  const { t } = useTranslation('channels');
  const url = `${window.location.origin}${path}`;
  const encoded = encodeURIComponent(url);
  const text = encodeURIComponent(title);
  const targets = [
    { name: 'X', href: `https://twitter.com/intent/tweet?url=${encoded}&text=${text}` },
    { name: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${encoded}` },
    { name: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${encoded}` },
    { name: t('share.email'), href: `mailto:?subject=${text}&body=${encoded}` },
  ];
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          value={url}
          aria-label={t('share.link')}
          onFocus={(event) => event.target.select()}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
        />
        <Button
          variant="secondary"
          onClick={() =>
            void navigator.clipboard
              .writeText(url)
              .then(() => toast.success(t('share.copied')))
              .catch(() => toast.error(t('share.copy_failed')))
          }
        >
          <CopyIcon className="size-4" />
          {t('share.copy')}
        </Button>
      </div>
      <p className="flex flex-wrap gap-3 text-sm">
        <span className="text-slate-600 dark:text-slate-400">{t('share.on')}</span>
        {targets.map((target) => (
          <a
            key={target.name}
            href={target.href}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-primary-700 hover:underline dark:text-primary-300"
          >
            {target.name}
          </a>
        ))}
      </p>
    </div>
  );
}
