import { useEffect, useState } from 'react';

/** Seconds left until an epoch-seconds instant, ticking every second; 0 once it has come. */
export function useCountdown(targetSeconds: number | undefined) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (targetSeconds === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [targetSeconds]);
  if (targetSeconds === undefined) return undefined;
  const left = Math.max(0, Math.round(targetSeconds - now / 1000));
  return {
    total: left,
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  };
}
