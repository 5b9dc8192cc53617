import { accountCalls } from '@meetcast/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { PageSpinner } from '../../components/spinner';
import { api } from '../../lib/api';
import { readSessionToken } from '../../lib/session-cookie';
import { useSession } from '../session';
import { decideCallback } from './callback-guard';

/**
 * `/meetcast-names-login` (ADR 004): the provider's `code` is processed exactly once. It is
 * taken out of the address at once (a reload finds nothing to send) and remembered (a second mount
 * does not send it again), then posted as `token` with the redirect's `state` and `iss`. Success
 * stores the token and the user, goes to / and reloads; failure shows the server's message in an
 * error toast and goes to /login.
 */
export default function SignInCallbackPage() {
  const { t } = useTranslation('oidc');
  const navigate = useNavigate();
  const { signIn } = useSession();

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const code = params.get('code') ?? '';
    const error = params.get('error') ?? '';
    const key = code || (error && `error:${params.get('state') ?? ''}`);
    const decision = decideCallback(key);
    if (decision === 'wait') return;
    if (decision === 'leave') {
      if (readSessionToken()) window.location.replace('/');
      else void navigate('/login', { replace: true });
      return;
    }
    window.history.replaceState(window.history.state, '', window.location.pathname);

    const fields = {
      token: code || undefined,
      state: params.get('state') ?? undefined,
      iss: params.get('iss') ?? undefined,
      error: error || undefined,
    };
    api.call(accountCalls.meetcastNamesLogin, fields, { withToken: false }).then(
      (body) => {
        signIn(body.data.token, body.data.data);
        window.location.assign('/');
      },
      (failure: unknown) => {
        toast.error(failure instanceof Error ? failure.message : String(failure));
        void navigate('/login', { replace: true });
      },
    );
  }, [navigate, signIn]);

  // Back to this page from / may restore it from the back-forward cache, spinner and all: load it
  // afresh instead, so that it finds the cleaned address and moves on.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  return <PageSpinner label={t('signing_in')} />;
}
