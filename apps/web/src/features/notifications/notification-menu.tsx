import { BellIcon, InboxIcon, XIcon } from 'lucide-react';
import type { Notification } from '@meetcast/contracts';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MENU_CONTENT_CLASSES } from '../../components/menu-styles';
import { sanitizeNotificationHtml } from './sanitize';
import { useClearNotification, useNotifications } from './use-notifications';

function useRelativeTime() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.RelativeTimeFormat(i18n.resolvedLanguage ?? 'en', { numeric: 'auto' });
    return (epochSeconds: number) => {
      const seconds = epochSeconds - Date.now() / 1000;
      const steps: [Intl.RelativeTimeFormatUnit, number][] = [
        ['year', 31_536_000],
        ['month', 2_592_000],
        ['week', 604_800],
        ['day', 86_400],
        ['hour', 3_600],
        ['minute', 60],
      ];
      for (const [unit, size] of steps) {
        if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
      }
      return format.format(0, 'second');
    };
  }, [i18n.resolvedLanguage]);
}

function NotificationItem({ notification }: { notification: Notification }) {
  const { t } = useTranslation('shell');
  const clear = useClearNotification();
  const relative = useRelativeTime();
  const html = useMemo(() => sanitizeNotificationHtml(notification.text), [notification.text]);
  return (
    <div
      className="group relative flex gap-3 rounded-lg px-3 py-3 hover:bg-slate-50 dark:hover:bg-slate-800/60"
      data-notification={notification.id}
    >
      <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-primary-500" />
      <div className="min-w-0 flex-1">
        {/* Sanitized with DOMPurify just above; never rendered raw. */}
        <div
          dir="auto"
          className="notification-html text-sm break-words text-slate-800 dark:text-slate-100"
          dangerouslySetInnerHTML={{ __html: html }}
        />
        <time
          dateTime={new Date(notification.created_at * 1000).toISOString()}
          className="mt-1 block text-xs text-slate-600 dark:text-slate-400"
        >
          {relative(notification.created_at)}
        </time>
      </div>
      <DropdownMenu.Item
        onSelect={(event) => {
          event.preventDefault();
          clear.mutate(notification.id);
        }}
        disabled={clear.isPending}
        aria-label={t('notifications.clear')}
        className="-m-1 inline-flex size-8 shrink-0 cursor-pointer items-center justify-center rounded-full text-slate-500 outline-none data-[highlighted]:bg-slate-200 data-[highlighted]:text-slate-900 dark:text-slate-400 dark:data-[highlighted]:bg-slate-700 dark:data-[highlighted]:text-white"
      >
        <XIcon className="size-4" />
      </DropdownMenu.Item>
    </div>
  );
}

/** Top bar: the "Notification" dropdown with its "N New" badge. */
export function NotificationMenu() {
  const { t, i18n } = useTranslation('shell');
  const { data: notifications = [] } = useNotifications();
  const count = notifications.length;
  return (
    <DropdownMenu.Root dir={i18n.dir()} modal={false}>
      <DropdownMenu.Trigger
        aria-label={count > 0 ? t('notifications.trigger_count', { count }) : t('notifications.trigger')}
        className="relative inline-flex size-10 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
      >
        <BellIcon className="size-5" />
        {count > 0 && (
          <span
            aria-hidden="true"
            className="absolute end-1.5 top-1.5 flex min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] leading-4 font-bold text-white"
          >
            {count > 99 ? '99+' : count}
          </span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          collisionPadding={8}
          className={`${MENU_CONTENT_CLASSES} w-[300px] p-0 sm:w-[350px]`}
          data-testid="notification-panel"
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-700">
            <DropdownMenu.Label className="text-sm font-semibold text-slate-900 dark:text-white">
              {t('notifications.title')}
            </DropdownMenu.Label>
            {count > 0 && (
              <span className="rounded-full bg-primary-100 px-2 py-0.5 text-xs font-semibold text-primary-800 dark:bg-primary-500/20 dark:text-primary-200">
                {t('notifications.badge', { count })}
              </span>
            )}
          </div>
          {count === 0 ? (
            <div className="flex flex-col items-center gap-2 px-4 py-10 text-center text-sm text-slate-600 dark:text-slate-400">
              <InboxIcon className="size-8 text-slate-400 dark:text-slate-500" />
              {/* A focusable item keeps the menu keyboard-operable while it is empty. */}
              <DropdownMenu.Item className="rounded px-2 outline-none data-[highlighted]:underline">
                {t('notifications.empty')}
              </DropdownMenu.Item>
            </div>
          ) : (
            <div className="max-h-[min(420px,70vh)] space-y-0.5 overflow-y-auto p-2">
              {notifications.map((notification) => (
                <NotificationItem key={notification.id} notification={notification} />
              ))}
            </div>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
