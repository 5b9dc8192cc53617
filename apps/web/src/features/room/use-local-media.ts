import { useCallback, useEffect, useRef, useState } from 'react';
import { captureCamera, captureMicrophone, listDevices, type DeviceChoice, type DeviceList } from './media/local-media';

export interface LocalMedia {
  audioTrack: MediaStreamTrack | undefined;
  videoTrack: MediaStreamTrack | undefined;
  isAudioOn: boolean;
  isVideoOn: boolean;
  devices: DeviceList;
  choice: DeviceChoice;
  error: 'camera' | 'microphone' | undefined;
  setAudioOn(on: boolean): void;
  setVideoOn(on: boolean): Promise<MediaStreamTrack | undefined>;
  chooseDevice(kind: keyof DeviceChoice, deviceId: string): Promise<MediaStreamTrack | undefined>;
  stopAll(): void;
}

const EMPTY: DeviceList = { audioInputs: [], videoInputs: [], audioOutputs: [] };

/**
 * This browser's camera and microphone, from the pre-join preview into the call: the same tracks
 * are published (no second capture), the camera is released when turned off, and a muted
 * microphone stays captured but disabled so unmuting is instant.
 */
export function useLocalMedia(): LocalMedia {
  const [audioTrack, setAudioTrack] = useState<MediaStreamTrack>();
  const [videoTrack, setVideoTrack] = useState<MediaStreamTrack>();
  const [isAudioOn, setIsAudioOn] = useState(true);
  const [isVideoOn, setIsVideoOn] = useState(true);
  const [devices, setDevices] = useState<DeviceList>(EMPTY);
  const [choice, setChoice] = useState<DeviceChoice>({});
  const [error, setError] = useState<LocalMedia['error']>();
  const tracks = useRef<{ audio?: MediaStreamTrack; video?: MediaStreamTrack }>({});

  useEffect(() => {
    let isCancelled = false;
    const refresh = () => void listDevices().then((list) => !isCancelled && setDevices(list));
    void (async () => {
      const [audio, video] = await Promise.allSettled([captureMicrophone(), captureCamera()]);
      if (isCancelled) {
        for (const result of [audio, video]) if (result.status === 'fulfilled') result.value.stop();
        return;
      }
      if (audio.status === 'fulfilled') {
        tracks.current.audio = audio.value;
        setAudioTrack(audio.value);
      } else {
        setIsAudioOn(false);
        setError('microphone');
      }
      if (video.status === 'fulfilled') {
        tracks.current.video = video.value;
        setVideoTrack(video.value);
      } else {
        setIsVideoOn(false);
        setError('camera');
      }
      refresh();
    })();
    navigator.mediaDevices?.addEventListener('devicechange', refresh);
    return () => {
      isCancelled = true;
      navigator.mediaDevices?.removeEventListener('devicechange', refresh);
      tracks.current.audio?.stop();
      tracks.current.video?.stop();
    };
  }, []);

  const setAudioOn = useCallback((on: boolean) => {
    if (tracks.current.audio) tracks.current.audio.enabled = on;
    setIsAudioOn(on && Boolean(tracks.current.audio));
  }, []);

  const setVideoOn = useCallback(
    async (on: boolean) => {
      if (!on) {
        tracks.current.video?.stop();
        tracks.current.video = undefined;
        setVideoTrack(undefined);
        setIsVideoOn(false);
        return undefined;
      }
      try {
        const track = await captureCamera(choice.videoInput);
        tracks.current.video = track;
        setVideoTrack(track);
        setIsVideoOn(true);
        setError(undefined);
        return track;
      } catch {
        setError('camera');
        return undefined;
      }
    },
    [choice.videoInput],
  );

  const chooseDevice = useCallback(async (kind: keyof DeviceChoice, deviceId: string) => {
    setChoice((current) => ({ ...current, [kind]: deviceId }));
    if (kind === 'audioOutput') return undefined;
    if (kind === 'videoInput') {
      if (!tracks.current.video) return undefined;
      const track = await captureCamera(deviceId);
      tracks.current.video.stop();
      tracks.current.video = track;
      setVideoTrack(track);
      return track;
    }
    const track = await captureMicrophone(deviceId);
    track.enabled = tracks.current.audio?.enabled ?? true;
    tracks.current.audio?.stop();
    tracks.current.audio = track;
    setAudioTrack(track);
    return track;
  }, []);

  const stopAll = useCallback(() => {
    tracks.current.audio?.stop();
    tracks.current.video?.stop();
    tracks.current = {};
    setAudioTrack(undefined);
    setVideoTrack(undefined);
  }, []);

  return {
    audioTrack,
    videoTrack,
    isAudioOn,
    isVideoOn,
    devices,
    choice,
    error,
    setAudioOn,
    setVideoOn,
    chooseDevice,
    stopAll,
  };
}
