import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppRoot } from '../features/shell/app-root';
import { BlankLayout } from '../features/shell/blank-layout';
import { NotFoundPage } from '../features/shell/not-found-page';
import { RouteErrorPage } from '../features/shell/route-error-page';
import i18n from '../i18n/i18n';
import { PAGE_ROUTES, type LayoutKind } from './routes';

/** Spec section 9: a script chunk that has not arrived after 120 s counts as failed. */
const CHUNK_LOAD_TIMEOUT_MS = 120_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('chunk load timeout')), CHUNK_LOAD_TIMEOUT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function childrenOf(layout: LayoutKind): RouteObject[] {
  return PAGE_ROUTES.filter((route) => route.layout === layout).map((route) => ({
    path: route.path,
    lazy: async () => {
      const [module] = await Promise.all([withTimeout(route.page()), route.ns && i18n.loadNamespaces(route.ns)]);
      return { Component: module.default };
    },
  }));
}

/**
 * The blank layout is part of the first load (the sign-in page uses it); the main and admin layouts,
 * with their menus, dialogs and realtime client, load only once a signed-in page is opened.
 */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <AppRoot />,
      errorElement: <RouteErrorPage />,
      children: [
        {
          lazy: async () => ({ Component: (await withTimeout(import('../features/shell/main-layout'))).MainLayout }),
          children: childrenOf('main'),
        },
        { element: <BlankLayout />, children: childrenOf('blank') },
        {
          lazy: async () => ({ Component: (await withTimeout(import('../features/shell/admin-layout'))).AdminLayout }),
          children: childrenOf('admin'),
        },
        { children: childrenOf('bare') },
        { element: <BlankLayout />, children: [{ path: '*', element: <NotFoundPage /> }] },
      ],
    },
  ]);
}
