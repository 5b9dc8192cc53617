import { peopleCalls } from '@meetcast/contracts';
import { useEffect } from 'react';
import { api } from '../../lib/api';
import { useSession } from '../session';
import { browserTimeZone, isKnownTimeZone } from '../../lib/zoned-time';

/**
 * Every user has a time zone (reminders and calendars show times in it): accounts start on UTC, so the first signed-in visit
 * from a browser in another zone stores that zone once; the profile page changes it later.
 */
export function useTimeZoneDetection() {
  const { state, updateUser } = useSession();
  const user = state.status === 'signed-in' ? state.user : undefined;
  useEffect(() => {
    if (!user || user.time_zone !== 'UTC') return;
    const detected = browserTimeZone();
    const key = `meetcast.timeZoneDetected.${user.id}`;
    if (detected === 'UTC' || !isKnownTimeZone(detected) || localStorage.getItem(key)) return;
    localStorage.setItem(key, detected);
    api
      .call(peopleCalls.updateProfile, { time_zone: detected })
      .then((answer) => updateUser(answer.data.data))
      .catch(() => localStorage.removeItem(key));
  }, [user, updateUser]);
}
