import {
  ArrowLeftIcon,
  CalendarIcon,
  CalendarPlusIcon,
  ClockIcon,
  HistoryIcon,
  HouseIcon,
  LayoutGridIcon,
  ListIcon,
  MailIcon,
  RadioIcon,
  ShieldIcon,
  TvIcon,
  UserIcon,
  UsersIcon,
  VideoIcon,
} from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import type { MeetingDialog } from '../meetings';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

/** A sidebar entry: a link, or a button that opens one of the meeting dialogs. */
export type NavEntry =
  | {
      kind: 'link';
      id: string;
      to: string;
      label: string;
      icon: Icon;
      end?: boolean;
      isAdminOnly?: boolean;
      /** Other paths on which this entry counts as the current one. */
      activeOn?: string[];
    }
  | { kind: 'dialog'; id: string; dialog: MeetingDialog; label: string; icon: Icon };

/** User sidebar, in the spec's order (section 2); labels are keys of the `shell` namespace. */
export const USER_NAVIGATION: NavEntry[] = [
  { kind: 'link', id: 'dashboard', to: '/', label: 'nav.dashboard', icon: HouseIcon, end: true },
  { kind: 'link', id: 'upcoming', to: '/upcoming-mettings', label: 'nav.upcoming_meetings', icon: ClockIcon },
  { kind: 'link', id: 'recent', to: '/recent-mettings', label: 'nav.recent_meetings', icon: HistoryIcon },
  { kind: 'dialog', id: 'schedule', dialog: 'schedule', label: 'nav.schedule_meeting', icon: CalendarPlusIcon },
  { kind: 'dialog', id: 'instant', dialog: 'instant', label: 'nav.instant_meeting', icon: VideoIcon },
  { kind: 'link', id: 'calendar', to: '/calendar', label: 'nav.calendar', icon: CalendarIcon },
  { kind: 'link', id: 'streaming', to: '/connect-stream', label: 'nav.streaming', icon: RadioIcon },
  { kind: 'link', id: 'contacts', to: '/contacts', label: 'nav.contacts', icon: UsersIcon },
  { kind: 'link', id: 'channels', to: '/channels', label: 'nav.channels', icon: TvIcon },
  { kind: 'link', id: 'profile', to: '/profile', label: 'nav.profile', icon: UserIcon },
  { kind: 'link', id: 'contact-us', to: '/contact-us', label: 'nav.contact_us', icon: MailIcon },
  { kind: 'link', id: 'admin', to: '/admin', label: 'nav.admin', icon: ShieldIcon, isAdminOnly: true },
];

/** Admin sidebar (section 2). */
export const ADMIN_NAVIGATION: NavEntry[] = [
  {
    kind: 'link',
    id: 'admin-dashboard',
    to: '/admin/dashboard',
    label: 'nav.admin_dashboard',
    icon: LayoutGridIcon,
    activeOn: ['/admin', '/admin/'],
  },
  { kind: 'link', id: 'admin-users', to: '/admin/users', label: 'nav.admin_users', icon: UsersIcon },
  { kind: 'link', id: 'admin-meetings', to: '/admin/meetings', label: 'nav.admin_meetings', icon: VideoIcon },
  { kind: 'link', id: 'admin-channels', to: '/admin/channels', label: 'nav.admin_channels', icon: TvIcon },
  { kind: 'link', id: 'admin-contacts', to: '/admin/contacts', label: 'nav.admin_contacts', icon: ListIcon },
  { kind: 'link', id: 'admin-events', to: '/admin/events', label: 'nav.admin_events', icon: CalendarIcon },
  { kind: 'link', id: 'back-to-user', to: '/', label: 'nav.back_to_user', icon: ArrowLeftIcon, end: true },
];
