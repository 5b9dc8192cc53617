import { GlobeIcon, ShieldIcon } from 'lucide-react';
import { accountCalls, type SignInMethods as Methods } from '@meetcast/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { api } from '../../lib/api';

/** Invalidate this after setting or changing a password so that the section shows it at once. */
export const SIGN_IN_METHODS_QUERY_KEY = ['sign-in-methods'] as const;

export function useSignInMethods() {
  return useQuery<Methods>({
    queryKey: SIGN_IN_METHODS_QUERY_KEY,
    queryFn: async ({ signal }) => (await api.call(accountCalls.getSignInMethods, {}, { signal })).data.data,
    meta: { silent: true },
  });
}

const ROW = 'flex items-start gap-3 py-3';
const ICON = 'mt-0.5 size-5 shrink-0 text-primary-600 dark:text-primary-400';

/**
 * The profile's "Sign-in methods" section: whether a password is set (someone who only ever used
 * the external provider has none, and the profile's password form lets them set one) and the
 * linked external identities. Exported for the profile page.
 */
export function SignInMethods({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('oidc');
  const methods = useSignInMethods();
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium' });

  return (
    <section
      aria-labelledby="sign-in-methods-title"
      className={
        className ??
        'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900'
      }
    >
      <h2 id="sign-in-methods-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        {t('methods.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('methods.subtitle')}</p>
      {methods.isPending && <Spinner className="mt-4 size-5 text-primary-600" label={t('methods.title')} />}
      {methods.isError && (
        <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-400">
          {t('methods.load_failed')}
        </p>
      )}
      {methods.data && (
        <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
          <li className={ROW}>
            <ShieldIcon className={ICON} />
            <div className="min-w-0">
              <p className="font-medium text-slate-900 dark:text-white">{t('methods.password')}</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {methods.data.has_password ? t('methods.password_set') : t('methods.password_missing')}
              </p>
            </div>
          </li>
          {methods.data.external.map((identity) => (
            <li key={identity.id} className={ROW}>
              <GlobeIcon className={ICON} />
              <div className="min-w-0">
                <p className="font-medium text-slate-900 dark:text-white">{identity.provider}</p>
                <p className="truncate text-sm text-slate-600 dark:text-slate-400">
                  {[identity.email, t('methods.linked_on', { date: date.format(identity.created_at * 1000) })]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
              </div>
            </li>
          ))}
          {methods.data.external.length === 0 && (
            <li className={`${ROW} text-sm text-slate-600 dark:text-slate-400`}>{t('methods.none')}</li>
          )}
        </ul>
      )}
    </section>
  );
}
