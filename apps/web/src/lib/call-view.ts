import { useSyncExternalStore } from 'react';

/**
 * Whether a call fills the screen: the room's call sets it while mounted, and the shell then leaves
 * out its sidebar and top bar (the pre-join screen keeps them). One flag, shared through lib/ because
 * the shell and the room are separate features.
 */
let isCallOn = false;
const listeners = new Set<() => void>();

export function setCallView(on: boolean) {
  isCallOn = on;
  for (const listener of listeners) listener();
}

export function useCallView(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => isCallOn,
    () => false,
  );
}
