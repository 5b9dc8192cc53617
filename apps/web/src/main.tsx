import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './i18n/i18n';
import { seedPreferences } from './lib/preferences';
import './styles/index.css';

seedPreferences();

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
