import { accountCalls } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { api } from '../../lib/api';
import { useAuthConfig } from './use-auth-config';

/**
 * "Sign in with {{name}}" on /login and /signup, only when the server has an external provider
 * configured. The server keeps the PKCE verifier, state and nonce and answers the provider's
 * address; the browser goes there and comes back to /meetcast-names-login.
 */
export function ExternalSignInButton() {
  const { t } = useTranslation('oidc');
  const config = useAuthConfig();
  const start = useMutation({
    mutationFn: () => api.call(accountCalls.startExternalLogin, {}, { withToken: false }),
    onSuccess: (body) => window.location.assign(body.data.url),
  });
  const provider = config.data?.oidc;
  if (!provider) return null;

  return (
    <div className="mt-6">
      <div className="flex items-center gap-3 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        {t('divider')}
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      </div>
      <Button
        variant="secondary"
        size="lg"
        className="mt-6 w-full"
        isLoading={start.isPending || start.isSuccess}
        onClick={() => start.mutate()}
      >
        {t('button', { name: provider.display_name })}
      </Button>
    </div>
  );
}
