import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { meetingsApi } from './meetings-api';

/**
 * Spec section 5: the slug is checked with the server on every change; an error answer's message
 * shows under the field, an empty slug shows "please enter valid name", and the dialog's main button
 * stays disabled while an error exists. Only the answer to the latest value counts.
 */
export function useSlugCheck(meetingId?: number) {
  const { t } = useTranslation('meetings');
  const [error, setError] = useState<string | undefined>();
  const [isChecking, setIsChecking] = useState(false);
  const latest = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => latest.current?.abort(), []);

  const check = useCallback(
    (slug: string) => {
      latest.current?.abort();
      if (slug.trim() === '') {
        setIsChecking(false);
        setError(t('form.enter_valid_name'));
        return;
      }
      const controller = new AbortController();
      latest.current = controller;
      setIsChecking(true);
      meetingsApi
        .checkMeetName(slug, meetingId, controller.signal)
        .then(() => {
          if (!controller.signal.aborted) setError(undefined);
        })
        .catch((failure: unknown) => {
          if (controller.signal.aborted) return;
          // A server that could not be reached gave no answer about the slug; the submit will say so.
          if (failure instanceof ApiError && !failure.isNetworkError) setError(failure.message);
        })
        .finally(() => {
          if (!controller.signal.aborted) setIsChecking(false);
        });
    },
    [meetingId, t],
  );

  const reset = useCallback(() => {
    latest.current?.abort();
    setError(undefined);
    setIsChecking(false);
  }, []);

  return { error, isChecking, check, reset };
}
