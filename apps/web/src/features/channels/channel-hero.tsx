import { LinkIcon } from 'lucide-react';
import type { Channel } from '@meetcast/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/avatar';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../components/button';
import { signInPath } from '../../lib/sign-in-return';
import { imageUrl } from '../../lib/image-url';
import { useFollow } from './use-channels';

export function LiveBadge() {
  const { t } = useTranslation('channels');
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-red-600 px-2 py-0.5 text-xs font-bold uppercase text-white">
      <span className="size-1.5 animate-pulse rounded-full bg-white" aria-hidden="true" />
      {t('live')}
    </span>
  );
}

export function FollowButton({ channel }: { channel: Channel }) {
  const { t } = useTranslation('channels');
  const follow = useFollow();
  return (
    <Button
      variant={channel.is_following ? 'secondary' : 'primary'}
      isLoading={follow.isPending}
      aria-pressed={channel.is_following}
      onClick={() => follow.mutate({ id: channel.id, follow: !channel.is_following })}
    >
      {channel.is_following ? t('actions.unfollow') : t('actions.follow')}
    </Button>
  );
}

/**
 * Follow for a signed-out visitor: sign in first, then come back to this page, which follows
 * (`?follow=1`, see useFollowAfterSignIn).
 */
export function SignInToFollowLink({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation('channels');
  return (
    <Link to={signInPath(`${returnTo}?follow=1`)} className={buttonClasses('primary')}>
      {t('actions.follow')}
    </Link>
  );
}

/** The top of a channel page: cover, picture, name, owner, followers, links and the caller's actions. */
export function ChannelHero({ channel, actions }: { channel: Channel; actions?: ReactNode }) {
  const { t } = useTranslation('channels');
  const cover = imageUrl(channel.cover);
  return (
    <header className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="aspect-[4/1] w-full bg-gradient-to-r from-primary-600 to-fuchsia-600">
        {cover && <img src={cover} alt="" className="size-full object-cover" />}
      </div>
      <div className="flex flex-wrap items-end gap-4 px-6 pb-6">
        <Avatar
          name={channel.name}
          path={channel.avatar}
          className="-mt-10 size-20 border-4 border-white text-2xl dark:border-slate-900"
        />
        <div className="min-w-0 flex-1 pt-3">
          <div className="flex flex-wrap items-center gap-2">
            <h1 dir="auto" className="truncate text-2xl font-bold text-slate-900 dark:text-white">
              {channel.name}
            </h1>
            {channel.is_live && <LiveBadge />}
            {channel.visibility === 'unlisted' && (
              <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-700 dark:text-slate-200">
                {t('visibility.unlisted')}
              </span>
            )}
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {[
              t('hero.byline', { owner: channel.owner.username }),
              t('hero.followers', { number: channel.followers_count }),
              t(`categories.${channel.category}`),
            ].join(' · ')}
          </p>
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {(channel.description || channel.links.length > 0) && (
        <div className="space-y-3 border-t border-slate-200 px-6 py-4 dark:border-slate-800">
          {channel.description && (
            <p className="whitespace-pre-line text-sm text-slate-700 dark:text-slate-300">{channel.description}</p>
          )}
          {channel.links.length > 0 && (
            <ul className="flex flex-wrap gap-3">
              {channel.links.map((link) => (
                <li key={link.url}>
                  <a
                    href={link.url}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline dark:text-primary-300"
                  >
                    <LinkIcon className="size-3.5" />
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </header>
  );
}
