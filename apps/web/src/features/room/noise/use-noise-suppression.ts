import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { storage } from '../media/device-memory';
import type { NoiseSuppressor } from './noise-suppressor';

const STORAGE_KEY = 'meetcast.noiseSuppression';

export interface NoiseControl {
  /** False where the browser has no AudioWorklet or WebAssembly: the switch is hidden. */
  isSupported: boolean;
  isOn: boolean;
  setOn(on: boolean): void;
}

const isSupported = typeof AudioWorkletNode !== 'undefined' && typeof WebAssembly !== 'undefined';

/**
 * Noise suppression on the microphone: `present(microphone)` shows (through `show`) the microphone
 * itself at once and, when suppression is on, the suppressor's output as soon as its model is loaded
 * (the model and its worklet load only then, never with the page). The choice is remembered; a model
 * that does not load falls back to the plain microphone with a notice.
 */
export function useNoiseSuppression(show: (track: MediaStreamTrack | undefined) => void) {
  const { t } = useTranslation('room');
  const [isOn, setIsOn] = useState(() => isSupported && storage()?.getItem(STORAGE_KEY) === 'on');
  const isOnRef = useRef(isOn);
  const microphoneRef = useRef<MediaStreamTrack>(undefined);
  const suppressorRef = useRef<NoiseSuppressor>(undefined);
  // Each present() is a generation: a model that finishes loading after a newer one is dropped.
  const generationRef = useRef(0);

  const remember = useCallback((on: boolean) => {
    isOnRef.current = on;
    setIsOn(on);
    storage()?.setItem(STORAGE_KEY, on ? 'on' : 'off');
  }, []);

  const present = useCallback(
    (microphone: MediaStreamTrack | undefined) => {
      microphoneRef.current = microphone;
      const generation = ++generationRef.current;
      suppressorRef.current?.close();
      suppressorRef.current = undefined;
      show(microphone);
      if (!microphone || !isOnRef.current) return;
      void import('./noise-suppressor')
        .then(({ NoiseSuppressor }) => NoiseSuppressor.start(microphone))
        .then(
          (suppressor) => {
            if (generation !== generationRef.current) return suppressor.close();
            suppressorRef.current = suppressor;
            show(suppressor.output);
          },
          () => {
            if (generation !== generationRef.current) return;
            remember(false);
            toast.warning(t('devices.noise_failed'));
          },
        );
    },
    [show, remember, t],
  );

  const setOn = useCallback(
    (on: boolean) => {
      if (on === isOnRef.current) return;
      remember(on);
      present(microphoneRef.current);
    },
    [present, remember],
  );

  useEffect(
    () => () => {
      generationRef.current += 1;
      suppressorRef.current?.close();
    },
    [],
  );

  const control: NoiseControl = { isSupported, isOn, setOn };
  return { control, present };
}
