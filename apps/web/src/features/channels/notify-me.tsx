import { BellIcon, BellRingIcon } from 'lucide-react';
import { streamingCalls, type Broadcast } from '@meetcast/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { Button, buttonClasses } from '../../components/button';
import { api } from '../../lib/api';
import { signInPath } from '../../lib/sign-in-return';
import { CHANNELS_KEY } from './use-channels';

const reminderKey = (meetId: string) => [...CHANNELS_KEY, 'reminder', meetId] as const;
/** The page's flag after signing in to be notified (`?notify={meetId}`): set it once, then drop it. */
const NOTIFY_PARAM = 'notify';

function useReminder(meetId: string) {
  return useQuery({
    queryKey: reminderKey(meetId),
    queryFn: async ({ signal }) =>
      (await api.call(streamingCalls.getBroadcastReminder, { meetId }, { signal })).data.data,
  });
}

function useSetReminder(meetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isOn: boolean) => api.call(streamingCalls.setBroadcastReminder, { meetId, on: isOn ? 1 : 0 }),
    onSuccess: (body) => {
      toast.success(body.message);
      queryClient.setQueryData(reminderKey(meetId), body.data.data);
    },
  });
}

/**
 * "Notify me" on a scheduled broadcast (ADR 048): an e-mail and a notification once, when it goes
 * live. Signed out, it leads to signing in and back here, where it is turned on.
 */
export function NotifyMe({
  broadcast,
  isSignedIn,
  returnTo,
}: {
  broadcast: Broadcast;
  isSignedIn: boolean;
  returnTo: string;
}) {
  const { t } = useTranslation('channels');
  if (!isSignedIn) {
    const back = `${returnTo}?${new URLSearchParams({ [NOTIFY_PARAM]: broadcast.url_slug }).toString()}`;
    return (
      <Link to={signInPath(back)} className={buttonClasses('secondary')}>
        <BellIcon className="size-4" aria-hidden="true" />
        {t('notify.button')}
      </Link>
    );
  }
  return <NotifyMeToggle meetId={broadcast.url_slug} />;
}

function NotifyMeToggle({ meetId }: { meetId: string }) {
  const { t } = useTranslation('channels');
  const reminder = useReminder(meetId);
  const change = useSetReminder(meetId);
  const isSet = reminder.data?.is_set ?? false;
  useTurnOnAfterSignIn(meetId, reminder.isSuccess, isSet, change.mutate);
  if (!reminder.isSuccess) return null;
  return (
    <Button
      variant="secondary"
      aria-pressed={isSet}
      isLoading={change.isPending}
      onClick={() => change.mutate(!isSet)}
      title={isSet ? t('notify.turn_off') : t('notify.hint')}
    >
      {isSet ? (
        <BellRingIcon className="size-4 text-primary-600 dark:text-primary-300" aria-hidden="true" />
      ) : (
        <BellIcon className="size-4" aria-hidden="true" />
      )}
      {isSet ? t('notify.set') : t('notify.button')}
    </Button>
  );
}

/** Back from signing in to be notified: turns it on for the broadcast named by the flag, once. */
function useTurnOnAfterSignIn(meetId: string, isKnown: boolean, isSet: boolean, turn: (isOn: boolean) => void) {
  const [searchParams, setSearchParams] = useSearchParams();
  const wanted = searchParams.get(NOTIFY_PARAM) === meetId;
  useEffect(() => {
    if (!wanted || !isKnown) return;
    setSearchParams(
      (params) => {
        params.delete(NOTIFY_PARAM);
        return params;
      },
      { replace: true },
    );
    if (!isSet) turn(true);
  }, [wanted, isKnown, isSet, turn, setSearchParams]);
}
