import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useBackgroundEffect, type BackgroundControl } from './effects/use-background-effect';
import { canChooseSpeaker, rememberDevice, rememberedDevices } from './media/device-memory';
import { captureCamera, captureMicrophone, listDevices, type DeviceChoice, type DeviceList } from './media/local-media';
import { useNoiseSuppression, type NoiseControl } from './noise/use-noise-suppression';

export interface LocalMedia {
  audioTrack: MediaStreamTrack | undefined;
  videoTrack: MediaStreamTrack | undefined;
  isAudioOn: boolean;
  isVideoOn: boolean;
  devices: DeviceList;
  choice: DeviceChoice;
  /** False where the browser cannot route sound to a chosen output: the speaker picker is hidden. */
  canChooseSpeaker: boolean;
  error: 'camera' | 'microphone' | undefined;
  /** Blur or a scene behind the person; `videoTrack` is then the effect's output, not the camera's. */
  background: BackgroundControl;
  /** RNNoise on the microphone; `audioTrack` is then the suppressor's output, not the microphone's. */
  noise: NoiseControl;
  setAudioOn(on: boolean): void;
  setVideoOn(on: boolean): Promise<MediaStreamTrack | undefined>;
  chooseDevice(kind: keyof DeviceChoice, deviceId: string): Promise<MediaStreamTrack | undefined>;
  stopAll(): void;
}

type InputKind = 'audioInput' | 'videoInput';

const EMPTY: DeviceList = { audioInputs: [], videoInputs: [], audioOutputs: [] };

/** The remembered device first; if it is gone (or refuses), whatever the browser picks. */
async function captureWithFallback(kind: InputKind, deviceId: string | undefined) {
  const capture = kind === 'videoInput' ? captureCamera : captureMicrophone;
  if (!deviceId) return capture();
  return capture(deviceId).catch(() => capture());
}

function deviceIdOf(track: MediaStreamTrack) {
  return track.getSettings().deviceId;
}

/**
 * This browser's camera and microphone, from the pre-join preview into the call: the same tracks
 * are published (no second capture), the camera is released when turned off, and a muted
 * microphone stays captured but disabled so unmuting is instant. A device that disappears (its
 * track ends, or it leaves the device list) is replaced by another one with a notice; the call
 * follows through `audioTrack` / `videoTrack`, which the publisher swaps with replaceTrack. With a
 * background effect on, `videoTrack` is the effect's output for the camera track held here; with
 * noise suppression on, `audioTrack` is the suppressor's output for the microphone held here.
 */
export function useLocalMedia(): LocalMedia {
  const { t } = useTranslation('room');
  const [audioTrack, setAudioTrack] = useState<MediaStreamTrack>();
  const [videoTrack, setVideoTrack] = useState<MediaStreamTrack>();
  const { control: background, present: presentCamera } = useBackgroundEffect(setVideoTrack);
  const { control: noise, present: presentMicrophone } = useNoiseSuppression(setAudioTrack);
  const [isAudioOn, setIsAudioOn] = useState(true);
  const [isVideoOn, setIsVideoOn] = useState(true);
  const [devices, setDevices] = useState<DeviceList>(EMPTY);
  const [choice, setChoice] = useState<DeviceChoice>(rememberedDevices);
  const [error, setError] = useState<LocalMedia['error']>();
  const tracks = useRef<{ audio?: MediaStreamTrack; video?: MediaStreamTrack }>({});
  const choiceRef = useRef(choice);
  useEffect(() => {
    choiceRef.current = choice;
  });
  // Event handlers registered once reach the latest recovery code through this ref.
  const onLostRef = useRef<(kind: InputKind, lost: MediaStreamTrack) => Promise<void>>(async () => undefined);

  /** Makes `track` the current one of its kind; the previous one is released. */
  const install = useCallback(
    (kind: InputKind, track: MediaStreamTrack | undefined) => {
      const slot = kind === 'videoInput' ? 'video' : 'audio';
      const previous = tracks.current[slot];
      if (previous === track) return;
      if (track && slot === 'audio') track.enabled = previous?.enabled ?? true;
      previous?.stop();
      tracks.current[slot] = track;
      // stop() never fires 'ended': only the browser losing the device does.
      track?.addEventListener('ended', () => void onLostRef.current(kind, track), { once: true });
      if (slot === 'video') presentCamera(track);
      else presentMicrophone(track);
    },
    [presentCamera, presentMicrophone],
  );

  useEffect(() => {
    onLostRef.current = async (kind, lost) => {
      const slot = kind === 'videoInput' ? 'video' : 'audio';
      if (tracks.current[slot] !== lost) return;
      const lostId = deviceIdOf(lost);
      const list = await listDevices().catch(() => EMPTY);
      setDevices(list);
      const inputs = kind === 'videoInput' ? list.videoInputs : list.audioInputs;
      const candidates = inputs.filter((device) => device.deviceId && device.deviceId !== lostId);
      for (const device of candidates) {
        const track = await (kind === 'videoInput' ? captureCamera : captureMicrophone)(device.deviceId).catch(
          () => undefined,
        );
        if (!track) continue;
        // Turned off, switched or replaced by another recovery meanwhile: keep what is there now.
        if (tracks.current[slot] !== lost) {
          track.stop();
          return;
        }
        install(kind, track);
        setChoice((current) => ({ ...current, [kind]: device.deviceId }));
        const name = device.label || t('prejoin.device_n', { n: inputs.indexOf(device) + 1 });
        toast.warning(t(kind === 'videoInput' ? 'devices.camera_switched' : 'devices.microphone_switched', { name }));
        return;
      }
      if (tracks.current[slot] !== lost) return;
      install(kind, undefined);
      if (kind === 'videoInput') setIsVideoOn(false);
      else setIsAudioOn(false);
      toast.warning(t(kind === 'videoInput' ? 'devices.camera_lost' : 'devices.microphone_lost'));
    };
  });

  useEffect(() => {
    let isCancelled = false;
    // install() mutates this object, never replaces it.
    const held = tracks.current;
    const onDeviceChange = async () => {
      const list = await listDevices().catch(() => undefined);
      if (isCancelled || !list) return;
      setDevices(list);
      // A device in use that left the list was unplugged, even if its track has not ended (yet).
      for (const [kind, inputs] of [
        ['videoInput', list.videoInputs],
        ['audioInput', list.audioInputs],
      ] as const) {
        const track = tracks.current[kind === 'videoInput' ? 'video' : 'audio'];
        const id = track && deviceIdOf(track);
        if (track && id && !inputs.some((device) => device.deviceId === id)) void onLostRef.current(kind, track);
      }
      const speaker = choiceRef.current.audioOutput;
      if (speaker && !list.audioOutputs.some((device) => device.deviceId === speaker)) {
        setChoice((current) => ({ ...current, audioOutput: undefined }));
        toast.warning(t('devices.speaker_lost'));
      }
    };
    // Listed at once, not only once the camera and microphone are open: a capture that takes long
    // (a camera another program holds, a busy machine) would show "No device found" until then.
    let hasListAfterCapture = false;
    void listDevices().then(
      (list) => !isCancelled && !hasListAfterCapture && setDevices(list),
      () => undefined,
    );
    void (async () => {
      const remembered = choiceRef.current;
      const [audio, video] = await Promise.allSettled([
        captureWithFallback('audioInput', remembered.audioInput),
        captureWithFallback('videoInput', remembered.videoInput),
      ]);
      if (isCancelled) {
        for (const result of [audio, video]) if (result.status === 'fulfilled') result.value.stop();
        return;
      }
      if (audio.status === 'fulfilled') install('audioInput', audio.value);
      else {
        setIsAudioOn(false);
        setError('microphone');
      }
      if (video.status === 'fulfilled') install('videoInput', video.value);
      else {
        setIsVideoOn(false);
        setError('camera');
      }
      const list = await listDevices().catch(() => EMPTY);
      hasListAfterCapture = true;
      if (!isCancelled) setDevices(list);
    })();
    const listener = () => void onDeviceChange();
    navigator.mediaDevices?.addEventListener('devicechange', listener);
    return () => {
      isCancelled = true;
      navigator.mediaDevices?.removeEventListener('devicechange', listener);
      held.audio?.stop();
      held.video?.stop();
    };
    // Captured once per page; `t` only words the notices.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const setAudioOn = useCallback((on: boolean) => {
    if (tracks.current.audio) tracks.current.audio.enabled = on;
    setIsAudioOn(on && Boolean(tracks.current.audio));
  }, []);

  const setVideoOn = useCallback(
    async (on: boolean) => {
      if (!on) {
        install('videoInput', undefined);
        setIsVideoOn(false);
        return undefined;
      }
      try {
        const track = await captureWithFallback('videoInput', choiceRef.current.videoInput);
        install('videoInput', track);
        setIsVideoOn(true);
        setError(undefined);
        return track;
      } catch {
        setError('camera');
        return undefined;
      }
    },
    [install],
  );

  const chooseDevice = useCallback(
    async (kind: keyof DeviceChoice, deviceId: string) => {
      const choose = () => {
        setChoice((current) => ({ ...current, [kind]: deviceId }));
        rememberDevice(kind, deviceId);
      };
      // An output, or a camera that is off, is only chosen; the camera starts with the next "camera on".
      if (kind === 'audioOutput' || (kind === 'videoInput' && !tracks.current.video)) {
        choose();
        return undefined;
      }
      // A device that refuses to start leaves the current one in use and the choice unchanged.
      const track = await (kind === 'videoInput' ? captureCamera : captureMicrophone)(deviceId);
      choose();
      install(kind, track);
      if (kind === 'audioInput') setIsAudioOn(track.enabled);
      return track;
    },
    [install],
  );

  const stopAll = useCallback(() => {
    install('audioInput', undefined);
    install('videoInput', undefined);
  }, [install]);

  return {
    audioTrack,
    videoTrack,
    isAudioOn,
    isVideoOn,
    devices,
    choice,
    canChooseSpeaker,
    error,
    background,
    noise,
    setAudioOn,
    setVideoOn,
    chooseDevice,
    stopAll,
  };
}
