import { ClockIcon } from 'lucide-react';
import type { Broadcast, BroadcastViewer, ChannelPage } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { ViewerChat } from '../viewer-chat';
import { LiveBadge } from './channel-hero';
import type { FollowedStage } from './channel-stage';
import { BroadcastScreen, ViewerCount } from './player/broadcast-screen';
import { TheatreContext, useTheatreState } from './player/theatre';

/** A stage with something to play: its broadcast and the player's answer are known. */
export type PlayingStage = FollowedStage & { focus: Broadcast; viewer: BroadcastViewer };

/**
 * The page of a broadcast that plays (live or its replay), laid out as video sites do: the player
 * first, whole within the first screen; the chat beside it on a wide screen (under it in theatre
 * mode) and under it on a phone, where the player stays at the top while the chat scrolls; what the
 * broadcast is, under the player (ADR 037). One region, "Now on this channel", as the stage it replaces.
 */
export function WatchStage({
  page,
  followed,
  chatMeetId,
}: {
  page: ChannelPage;
  followed: PlayingStage;
  chatMeetId: string | undefined;
}) {
  const { t, i18n } = useTranslation('channels');
  const theatre = useTheatreState();
  const { focus, viewer, state } = followed;
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'full', timeStyle: 'short' });
  const Heading = page.channel ? 'h2' : 'h1';
  const isBeside = !theatre.isOn;
  return (
    <TheatreContext.Provider value={theatre}>
      <section
        aria-label={t('stage.label')}
        data-state={state}
        data-theatre={theatre.isOn ? '' : undefined}
        className={cn(
          'flex flex-col gap-4 lg:grid lg:gap-x-6',
          isBeside ? 'lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_1fr]' : 'lg:grid-cols-1',
        )}
      >
        {/* On a phone the player runs edge to edge and stays at the top while the page scrolls. */}
        <div data-testid="watch-player" className="sticky top-0 z-20 -mx-4 sm:mx-0 lg:static">
          {/* Never taller than the screen leaves room for: the whole player is seen without scrolling. */}
          <div className="mx-auto w-full max-w-[calc((100dvh-12rem)*16/9)]">
            <BroadcastScreen viewer={viewer} title={focus.name} showsViewerCount={false} />
          </div>
        </div>
        <div className="min-w-0 space-y-1 text-slate-900 lg:col-start-1 dark:text-slate-100">
          <div className="flex flex-wrap items-center gap-2">
            {state === 'live' ? <LiveBadge /> : null}
            <span className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300">
              {t(`states.${state}`)}
            </span>
          </div>
          <Heading dir="auto" className="text-xl font-bold sm:text-2xl">
            {focus.name}
          </Heading>
          <p className="flex items-center gap-1 text-sm text-slate-600 dark:text-slate-300">
            <ClockIcon className="size-4" aria-hidden="true" />
            {format.format(focus.start_time * 1000)}
          </p>
          <ViewerCount viewer={viewer} className="text-sm text-slate-700 dark:text-slate-300" />
          {focus.description && (
            <p dir="auto" className="max-w-3xl whitespace-pre-line text-sm text-slate-700 dark:text-slate-300">
              {focus.description}
            </p>
          )}
          {page.broadcast?.host && !page.channel && (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {t('stage.host', { name: page.broadcast.host.username })}
            </p>
          )}
        </div>
        {chatMeetId && (
          <div
            data-testid="watch-chat"
            className={cn('h-[28rem]', isBeside && 'lg:relative lg:col-start-2 lg:row-start-1 lg:h-auto lg:min-h-80')}
          >
            <ViewerChat
              key={chatMeetId}
              meetId={chatMeetId}
              className={cn('h-full', isBeside && 'lg:absolute lg:inset-0')}
            />
          </div>
        )}
      </section>
    </TheatreContext.Provider>
  );
}
