import { ClockIcon, RadioIcon } from 'lucide-react';
import { meetingRoomPath } from '@meetcast/contracts';
import type { Broadcast, BroadcastViewer, ChannelPage, PublicBroadcastState } from '@meetcast/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';
import { LiveBadge } from './channel-hero';
import { BroadcastScreen, hasScreen } from './player/broadcast-screen';
import { useBroadcastViewer } from './player/use-broadcast-viewer';
import { CHANNELS_KEY } from './use-channels';
import { useCountdown } from './use-countdown';

const JOIN =
  'inline-flex h-11 items-center gap-2 rounded-lg bg-red-600 px-5 text-sm font-semibold text-white hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-500';

/** Days, hours, minutes and seconds until `target` (epoch seconds), on a dark card. */
export function Countdown({ target }: { target: number }) {
  const { t } = useTranslation('channels');
  const left = useCountdown(target);
  if (!left) return null;
  if (left.total === 0) return <p className="text-sm font-medium">{t('stage.starting')}</p>;
  const parts = [
    { value: left.days, label: t('stage.days') },
    { value: left.hours, label: t('stage.hours') },
    { value: left.minutes, label: t('stage.minutes') },
    { value: left.seconds, label: t('stage.seconds') },
  ];
  return (
    <div role="timer" aria-label={t('stage.countdown')} className="flex gap-3">
      {parts.map((part) => (
        <div key={part.label} className="min-w-16 rounded-xl bg-white/15 px-3 py-2 text-center">
          <span className="block text-2xl font-bold tabular-nums">{String(part.value).padStart(2, '0')}</span>
          <span className="text-xs uppercase opacity-80">{part.label}</span>
        </div>
      ))}
    </div>
  );
}

export interface FollowedStage {
  focus: Broadcast | undefined;
  viewer: BroadcastViewer | undefined;
  state: PublicBroadcastState | 'offline';
  showsScreen: boolean;
}

/**
 * The broadcast a page is about (the one live, else the next, else the latest replay) as it goes:
 * asked for every few seconds, and a change of its state refreshes the page's data. One truth (ADR
 * 022): the player's answer is the newest, the page's card the first one known.
 */
export function useFollowedStage(page: ChannelPage): FollowedStage {
  const latestReplay = page.channel?.past.find((broadcast) => broadcast.public_state === 'replay');
  const focus: Broadcast | undefined =
    page.broadcast ?? page.channel?.live ?? page.channel?.upcoming[0] ?? latestReplay ?? undefined;
  const viewer = useBroadcastViewer(focus?.url_slug).data;
  const queryClient = useQueryClient();
  const publicState = viewer?.public_state;
  useEffect(() => {
    if (publicState) void queryClient.invalidateQueries({ queryKey: [...CHANNELS_KEY, 'page'] });
  }, [publicState, queryClient]);
  const state = viewer?.public_state ?? focus?.public_state ?? 'offline';
  return { focus, viewer, state, showsScreen: hasScreen(viewer) };
}

/**
 * What is on now: the broadcast that is live (its player), the next one with a countdown, the
 * replay of one that ended, or "offline"; every label comes from the one public state (ADR 022).
 */
export function ChannelStage({
  page,
  followed,
  upcomingAction,
}: {
  page: ChannelPage;
  followed: FollowedStage;
  /** Beside the countdown of a broadcast still to come ("notify me"). */
  upcomingAction?: ReactNode;
}) {
  const { t, i18n } = useTranslation('channels');
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'full', timeStyle: 'short' });
  const { focus, viewer, state, showsScreen } = followed;
  // A broadcast outside any channel has no hero above it: its name is the page's heading.
  const Heading = page.channel ? 'h2' : 'h1';
  return (
    <section
      aria-label={t('stage.label')}
      data-state={state}
      className={cn(
        'rounded-2xl p-6 text-white shadow-sm',
        state === 'live'
          ? 'bg-gradient-to-r from-red-600 to-rose-500'
          : 'bg-gradient-to-r from-slate-800 to-primary-900',
      )}
    >
      {!focus ? (
        <div className="flex items-center gap-3">
          <RadioIcon className="size-6 opacity-80" />
          <div>
            <h2 className="text-lg font-semibold">{t('stage.offline_title')}</h2>
            <p className="text-sm opacity-90">{t('stage.offline')}</p>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-6">
          <div className="min-w-0 space-y-2">
            <div className="flex items-center gap-2">
              {state === 'live' ? <LiveBadge /> : null}
              <span className="text-xs font-semibold uppercase tracking-wide opacity-90">{t(`states.${state}`)}</span>
            </div>
            <Heading className="text-2xl font-bold">{focus.name}</Heading>
            <p className="flex items-center gap-1 text-sm opacity-90">
              <ClockIcon className="size-4" />
              {format.format(focus.start_time * 1000)}
            </p>
            {focus.description && (
              <p className="max-w-2xl whitespace-pre-line text-sm opacity-90">{focus.description}</p>
            )}
            {page.broadcast?.host && !page.channel && (
              <p className="text-sm opacity-90">{t('stage.host', { name: page.broadcast.host.username })}</p>
            )}
          </div>
          {state === 'live' && !showsScreen && (
            <Link to={meetingRoomPath(focus)} className={JOIN}>
              {t('stage.watch')}
            </Link>
          )}
          {state === 'upcoming' && (
            <div className="flex flex-wrap items-center gap-4">
              <Countdown target={focus.start_time} />
              {upcomingAction}
            </div>
          )}
          {state === 'ended' && !showsScreen && <p className="text-sm font-medium">{t('stage.ended')}</p>}
          {viewer && showsScreen && (
            <div className="w-full">
              <BroadcastScreen viewer={viewer} title={focus.name} />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
