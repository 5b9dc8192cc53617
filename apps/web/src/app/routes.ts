import type { ComponentType } from 'react';

/**
 * Every page of the app, one entry each (spec section 2). A feature adds its page here as one line;
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
  /** Translation namespaces the page needs beyond the core ones, fetched together with its code. */
  ns?: string[];
}

export const PAGE_ROUTES: PageRoute[] = [
  // Main layout
  { path: '/', layout: 'main', page: () => import('../features/dashboard/dashboard-page') },
  {
    path: '/recent-mettings',
    layout: 'main',
    page: () => import('../features/meetings/recent-meetings-page'),
    ns: ['streaming'],
  },
  { path: '/upcoming-mettings', layout: 'main', page: () => import('../features/meetings/upcoming-meetings-page') },
  { path: '/contacts', layout: 'main', page: () => import('../features/contacts/contacts-page') },
  { path: '/calendar', layout: 'main', page: () => import('../features/calendar/calendar-page') },
  { path: '/channels', layout: 'main', page: () => import('../features/channels/channels-page') },
  {
    path: '/channels/:meetId',
    layout: 'main',
    page: () => import('../features/channels/channel-detail-page'),
    ns: ['viewer-chat'],
  },
  { path: '/create-channel', layout: 'main', page: () => import('../features/channels/create-channel-page') },
  {
    path: '/my-channel',
    layout: 'main',
    page: () => import('../features/channels/my-channel-page'),
    ns: ['streaming'],
  },
  { path: '/edit-channel/:id', layout: 'main', page: () => import('../features/channels/edit-channel-page') },
  {
    path: '/connect-stream',
    layout: 'main',
    page: () => import('../features/streaming/connect-stream-page'),
    ns: ['streaming'],
  },
  { path: '/profile', layout: 'main', page: () => import('../features/profile/profile-page') },
  {
    path: '/room/:meetId',
    layout: 'main',
    page: () => import('../features/room/room-page'),
    ns: ['streaming', 'viewer-chat'],
  },
  { path: '/contact-us', layout: 'main', page: () => import('../features/contact-us/contact-us-page') },

  // Blank layout
  { path: '/channel', layout: 'blank', page: () => import('../features/channels/public-channels-page') },
  {
    path: '/channel/:meetId',
    layout: 'blank',
    page: () => import('../features/channels/public-channel-page'),
    ns: ['viewer-chat'],
  },
  { path: '/login', layout: 'blank', page: () => import('../features/auth/login-page'), ns: ['auth'] },
  {
    path: '/meetcast-names-login',
    layout: 'blank',
    page: () => import('../features/external-sign-in/sign-in-callback-page'),
  },
  { path: '/signup', layout: 'blank', page: () => import('../features/auth/signup-page'), ns: ['auth'] },
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
    ns: ['room'],
  },

  // Admin layout
  { path: '/admin', layout: 'admin', page: () => import('../features/admin/admin-dashboard-page') },
  { path: '/admin/dashboard', layout: 'admin', page: () => import('../features/admin/admin-dashboard-page') },
  { path: '/admin/users', layout: 'admin', page: () => import('../features/admin/admin-users-page') },
  { path: '/admin/meetings', layout: 'admin', page: () => import('../features/admin/admin-meetings-page') },
  { path: '/admin/channels', layout: 'admin', page: () => import('../features/admin/admin-channels-page') },
  { path: '/admin/contacts', layout: 'admin', page: () => import('../features/admin/admin-contacts-page') },
  { path: '/admin/events', layout: 'admin', page: () => import('../features/admin/admin-events-page') },
];
