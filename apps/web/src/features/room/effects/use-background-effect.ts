import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import {
  NO_BACKGROUND,
  OWN_IMAGE,
  isSameBackground,
  rememberBackground,
  rememberedBackground,
  type BackgroundChoice,
} from './background-choice';
import { BackgroundEffect, canUseBackgroundEffects, type EffectTrouble } from './background-effect';
import { BackgroundImageError, keepBackgroundImage, keptBackgroundImage } from './background-image';

export interface BackgroundControl {
  /** False where the browser cannot process camera frames in a worker: the picker is hidden. */
  isSupported: boolean;
  choice: BackgroundChoice;
  choose(choice: BackgroundChoice): void;
  /** The user's own picture, once one was added (kept in this browser). */
  image: ImageBitmap | undefined;
  /** Checks and keeps a picture file, then puts it behind the person; a bad file gets a notice. */
  addImage(file: File): void;
}

/**
 * Puts the chosen background on the camera: `present(camera)` shows (through `show`) either the
 * camera itself or the effect's output track, and `choose` changes the effect live. The choice is
 * remembered; a device too slow for it, or a model that does not load, falls back to no effect with
 * a notice.
 */
export function useBackgroundEffect(show: (track: MediaStreamTrack | undefined) => void) {
  const { t } = useTranslation('room');
  const [choice, setChoice] = useState<BackgroundChoice>(() =>
    canUseBackgroundEffects ? rememberedBackground() : NO_BACKGROUND,
  );
  const choiceRef = useRef(choice);
  const cameraRef = useRef<MediaStreamTrack>(undefined);
  const effectRef = useRef<BackgroundEffect>(undefined);
  const [image, setImage] = useState<ImageBitmap>();
  const imageRef = useRef<ImageBitmap>(undefined);
  const onTroubleRef = useRef<(trouble: EffectTrouble) => void>(() => undefined);
  const onMissingImageRef = useRef<() => void>(() => undefined);

  const present = useCallback(
    (camera: MediaStreamTrack | undefined) => {
      cameraRef.current = camera;
      const wanted = choiceRef.current;
      if (!camera || wanted.kind === 'none') {
        effectRef.current?.close();
        effectRef.current = undefined;
        show(camera);
        return;
      }
      if (!effectRef.current) {
        effectRef.current = new BackgroundEffect((trouble) => onTroubleRef.current(trouble));
        effectRef.current.setImage(imageRef.current);
      }
      show(effectRef.current.apply(camera, wanted));
    },
    [show],
  );

  const choose = useCallback(
    (next: BackgroundChoice) => {
      const previous = choiceRef.current;
      if (isSameBackground(previous, next)) return;
      choiceRef.current = next;
      setChoice(next);
      rememberBackground(next);
      // Blur to a scene (or back) changes the running effect in place; on and off swap the track.
      if (effectRef.current && next.kind !== 'none') effectRef.current.choose(next);
      else present(cameraRef.current);
    },
    [present],
  );

  const adoptImage = useCallback((next: ImageBitmap) => {
    imageRef.current = next;
    setImage(next);
    effectRef.current?.setImage(next);
  }, []);

  useEffect(() => {
    if (!canUseBackgroundEffects) return undefined;
    let isCurrent = true;
    void keptBackgroundImage().then((kept) => {
      if (!isCurrent) return;
      if (kept) adoptImage(kept);
      // The picture was removed from this browser's storage meanwhile: nothing to show it with.
      else if (choiceRef.current.kind === 'image') onMissingImageRef.current();
    });
    return () => {
      isCurrent = false;
    };
  }, [adoptImage]);

  const addImage = useCallback(
    (file: File) => {
      keepBackgroundImage(file).then(
        (added) => {
          adoptImage(added);
          choose(OWN_IMAGE);
        },
        (error: unknown) => {
          const problem = error instanceof BackgroundImageError ? error.problem : 'invalid';
          toast.error(t(`devices.background_image_${problem}`));
        },
      );
    },
    [choose, t, adoptImage],
  );

  useEffect(() => {
    onMissingImageRef.current = () => choose(NO_BACKGROUND);
    onTroubleRef.current = (trouble) => {
      choose(NO_BACKGROUND);
      toast.warning(t(trouble === 'too-slow' ? 'devices.background_too_slow' : 'devices.background_failed'));
    };
  });

  useEffect(
    () => () => {
      effectRef.current?.close();
      effectRef.current = undefined;
    },
    [],
  );

  const control: BackgroundControl = { isSupported: canUseBackgroundEffects, choice, choose, image, addImage };
  return { control, present };
}
