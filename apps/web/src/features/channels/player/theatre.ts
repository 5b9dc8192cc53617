import { createContext, useContext, useState } from 'react';

export interface Theatre {
  isOn: boolean;
  toggle(): void;
}

/** Theatre mode is the page's layout (the player across the page, the chat under it), asked for by the player. */
export const TheatreContext = createContext<Theatre | undefined>(undefined);

/** The player's theatre switch, when its page has a theatre layout (not the embedded player). */
export const useTheatre = () => useContext(TheatreContext);

const STORED = 'meetcast.theatre';

/** Kept for the next broadcast watched in this browser, as video sites do. */
export function useTheatreState(): Theatre {
  const [isOn, setOn] = useState(() => {
    try {
      return localStorage.getItem(STORED) === '1';
    } catch {
      return false;
    }
  });
  const toggle = () =>
    setOn((was) => {
      try {
        localStorage.setItem(STORED, was ? '0' : '1');
      } catch {
        // Storage refused (private mode): the choice lasts for this page only.
      }
      return !was;
    });
  return { isOn, toggle };
}
