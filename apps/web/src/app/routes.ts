import type { ComponentType } from 'react';

/**
 * Every page of the app, one entry each. A feature adds its page here as one line;
 * the import is lazy, so each page (the room, the calendar, the admin area…) loads only when visited.
 *
 * layout: "main" = sidebar + top bar for signed-in visitors (blank when no session cookie is present),
 * "blank" = no sidebar, "admin" = the admin area with its own sidebar (administrators only),
 * "bare" = nothing but the page (the broadcast composer's view of a meeting).
 */
export type LayoutKind = 'main' | 'blank' | 'admin' | 'bare';

export interface PageRoute {
  path: string;
  layout: LayoutKind;
  page: () => Promise<{ default: ComponentType }>;
  /**
   * Translation namespaces the page needs beyond the core ones, fetched together with its code. One
   * left out is fetched when a component first asks for it: the page suspends, and React shows it
   * again only after its ~300 ms Suspense throttle (seen on /channel/:meetId as two 280-ms waits).
   */
  ns?: string[];
}

export const PAGE_ROUTES: PageRoute[] = [
  // Main layout
  { path: '/', layout: 'main', page: () => import('../features/dashboard/dashboard-page'), ns: ['meetings'] },
  {
    path: '/recent-mettings',
    layout: 'main',
    page: () => import('../features/meetings/recent-meetings-page'),
    ns: ['meetings', 'streaming'],
  },
  {
    path: '/upcoming-mettings',
    layout: 'main',
    page: () => import('../features/meetings/upcoming-meetings-page'),
    ns: ['meetings', 'streaming'],
  },
  { path: '/contacts', layout: 'main', page: () => import('../features/contacts/contacts-page'), ns: ['contacts'] },
  {
    path: '/calendar',
    layout: 'main',
    page: () => import('../features/calendar/calendar-page'),
    ns: ['calendar', 'meetings'],
  },
  { path: '/channels', layout: 'main', page: () => import('../features/channels/channels-page'), ns: ['channels'] },
  {
    path: '/channels/:meetId',
    layout: 'main',
    page: () => import('../features/channels/channel-detail-page'),
    ns: ['channels', 'player', 'viewer-chat'],
  },
  {
    path: '/create-channel',
    layout: 'main',
    page: () => import('../features/channels/create-channel-page'),
    ns: ['channels'],
  },
  {
    path: '/my-channel',
    layout: 'main',
    page: () => import('../features/channels/my-channel-page'),
    ns: ['channels', 'player', 'streaming', 'viewer-chat'],
  },
  {
    path: '/edit-channel/:id',
    layout: 'main',
    page: () => import('../features/channels/edit-channel-page'),
    ns: ['channels'],
  },
  {
    path: '/connect-stream',
    layout: 'main',
    page: () => import('../features/streaming/connect-stream-page'),
    ns: ['streaming'],
  },
  { path: '/profile', layout: 'main', page: () => import('../features/profile/profile-page'), ns: ['profile', 'oidc'] },
  {
    path: '/room/:meetId',
    layout: 'main',
    page: () => import('../features/room/room-page'),
    ns: ['room', 'streaming', 'viewer-chat'],
  },
  {
    path: '/contact-us',
    layout: 'main',
    page: () => import('../features/contact-us/contact-us-page'),
    ns: ['contact-us'],
  },

  // Blank layout
  {
    path: '/channel',
    layout: 'blank',
    page: () => import('../features/channels/public-channels-page'),
    ns: ['channels'],
  },
  {
    path: '/channel/:meetId',
    layout: 'blank',
    page: () => import('../features/channels/public-channel-page'),
    ns: ['channels', 'player', 'viewer-chat'],
  },
  { path: '/login', layout: 'blank', page: () => import('../features/auth/login-page'), ns: ['auth', 'oidc'] },
  {
    path: '/meetcast-names-login',
    layout: 'blank',
    page: () => import('../features/external-sign-in/sign-in-callback-page'),
    ns: ['oidc'],
  },
  { path: '/signup', layout: 'blank', page: () => import('../features/auth/signup-page'), ns: ['auth', 'oidc'] },
  {
    path: '/confirm-signup',
    layout: 'blank',
    page: () => import('../features/auth/confirm-signup-page'),
    ns: ['auth'],
  },
  {
    path: '/forgot-password',
    layout: 'blank',
    page: () => import('../features/auth/forgot-password-page'),
    ns: ['auth'],
  },
  {
    path: '/reset-password',
    layout: 'blank',
    page: () => import('../features/auth/reset-password-page'),
    ns: ['auth'],
  },

  // Bare: opened by the broadcast composer with a grant, never by people.
  {
    path: '/broadcast-layout',
    layout: 'bare',
    page: () => import('../features/room/broadcast-layout-standby'),
    ns: ['room'],
  },
  {
    path: '/broadcast-layout/:meetId',
    layout: 'bare',
    page: () => import('../features/room/broadcast-layout-page'),
    ns: ['room', 'streaming'],
  },

  // Admin layout
  { path: '/admin', layout: 'admin', page: () => import('../features/admin/admin-dashboard-page'), ns: ['admin'] },
  {
    path: '/admin/dashboard',
    layout: 'admin',
    page: () => import('../features/admin/admin-dashboard-page'),
    ns: ['admin'],
  },
  { path: '/admin/users', layout: 'admin', page: () => import('../features/admin/admin-users-page'), ns: ['admin'] },
  {
    path: '/admin/meetings',
    layout: 'admin',
    page: () => import('../features/admin/admin-meetings-page'),
    ns: ['admin'],
  },
  {
    path: '/admin/channels',
    layout: 'admin',
    page: () => import('../features/admin/admin-channels-page'),
    ns: ['admin'],
  },
  {
    path: '/admin/contacts',
    layout: 'admin',
    page: () => import('../features/admin/admin-contacts-page'),
    ns: ['admin'],
  },
  { path: '/admin/events', layout: 'admin', page: () => import('../features/admin/admin-events-page'), ns: ['admin'] },
];
