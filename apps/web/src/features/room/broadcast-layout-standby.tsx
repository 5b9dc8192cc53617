import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

declare global {
  interface Window {
    /** Called by the composer (through Playwright) to open a meeting's layout without loading the app again. */
    __meetcastOpenLayout?: (path: string) => void;
  }
}

/**
 * Where a spare composer browser waits before any broadcast: the app and the layout's own code are
 * loaded and run now, so going live only navigates inside this page to `/broadcast-layout/{meetId}`
 * with its grant (ADR 014). Black, like the broadcast before its first picture; it connects to nothing.
 */
export default function BroadcastLayoutStandby() {
  const navigate = useNavigate();
  const [isLoaded, setIsLoaded] = useState(false);
  useEffect(() => {
    let isActive = true;
    void import('./broadcast-layout-page').then(() => isActive && setIsLoaded(true));
    window.__meetcastOpenLayout = (path) => void navigate(path);
    return () => {
      isActive = false;
      delete window.__meetcastOpenLayout;
    };
  }, [navigate]);
  return <div data-broadcast-standby={isLoaded ? 'ready' : undefined} className="h-screen w-screen bg-black" />;
}
