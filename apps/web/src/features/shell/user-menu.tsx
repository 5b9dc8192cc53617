import { ChevronDownIcon, LogOutIcon, UserIcon } from 'lucide-react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Avatar } from '../../components/avatar';
import { useSession } from '../session';
import { MENU_CONTENT_CLASSES, MENU_ITEM_CLASSES } from '../../components/menu-styles';

/** Top bar: avatar, username (default "User") and e-mail, with Profile and Sign Out. */
export function UserMenu() {
  const { t, i18n } = useTranslation('shell');
  const { state, signOut } = useSession();
  const navigate = useNavigate();
  if (state.status !== 'signed-in') return null;
  const { user } = state;
  const name = user.username || t('user.default_name');

  return (
    <DropdownMenu.Root dir={i18n.dir()} modal={false}>
      <DropdownMenu.Trigger
        className="flex items-center gap-2 rounded-full p-1 pe-2 text-start hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-500 dark:hover:bg-slate-800"
        aria-label={t('user.menu', { name })}
      >
        <Avatar name={name} path={user.avatar} className="size-8" />
        <span dir="auto" className="hidden max-w-32 truncate text-sm font-medium sm:inline">
          {name}
        </span>
        <ChevronDownIcon className="hidden size-4 text-slate-500 sm:inline dark:text-slate-400" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={8} className={`${MENU_CONTENT_CLASSES} w-64`}>
          <div className="flex items-center gap-3 px-3 py-3">
            <Avatar name={name} path={user.avatar} className="size-10" />
            <div className="min-w-0">
              <p dir="auto" className="truncate text-sm font-semibold text-slate-900 dark:text-white">
                {name}
              </p>
              <p dir="auto" className="truncate text-xs text-slate-600 dark:text-slate-400">
                {user.email}
              </p>
            </div>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
          <DropdownMenu.Item className={MENU_ITEM_CLASSES} onSelect={() => void navigate('/profile')}>
            <UserIcon className="size-4" />
            {t('user.profile')}
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className={`${MENU_ITEM_CLASSES} text-red-700 data-[highlighted]:bg-red-50 dark:text-red-300 dark:data-[highlighted]:bg-red-950`}
            onSelect={() => void signOut()}
          >
            <LogOutIcon className="size-4" />
            {t('user.sign_out')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
