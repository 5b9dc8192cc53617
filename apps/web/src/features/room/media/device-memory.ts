import type { DeviceChoice } from './local-media';

/**
 * The camera, microphone and speaker this browser chose last, so the next join (and the next tab)
 * starts with them. Device ids are stable per site in Chromium and Firefox once permission is granted.
 */
const STORAGE_KEY = 'meetcast.devices';
const KINDS = ['audioInput', 'videoInput', 'audioOutput'] as const satisfies readonly (keyof DeviceChoice)[];

/** This browser's local storage, or undefined where it is blocked (private modes, sandboxed frames). */
export function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function rememberedDevices(): DeviceChoice {
  try {
    const stored: unknown = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? '{}');
    if (typeof stored !== 'object' || stored === null) return {};
    const choice: DeviceChoice = {};
    for (const kind of KINDS) {
      const value = (stored as Record<string, unknown>)[kind];
      if (typeof value === 'string' && value) choice[kind] = value;
    }
    return choice;
  } catch {
    return {};
  }
}

export function rememberDevice(kind: keyof DeviceChoice, deviceId: string) {
  storage()?.setItem(STORAGE_KEY, JSON.stringify({ ...rememberedDevices(), [kind]: deviceId }));
}

/** Whether this browser can send a page's sound to a chosen output (Safari and Firefox may not). */
export const canChooseSpeaker = typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
