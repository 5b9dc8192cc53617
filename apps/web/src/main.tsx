import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { PAGE_DATA } from './features/channels/page-data';
import './i18n/i18n';
import { seedPreferences } from './lib/preferences';
import './styles/index.css';

seedPreferences();
// A live broadcast's page (its HTML says so) starts its picture's connection now, beside React's
// first render; the module is loaded only there, every other page's first load stays as small.
if (document.getElementById(PAGE_DATA.broadcastViewer)) {
  void import('./features/channels/player/early-watch').then(({ startEarlyWatch }) => startEarlyWatch());
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
const root = createRoot(container);
// A transition renders in slices that yield to the browser, instead of one long task on a slow phone.
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
