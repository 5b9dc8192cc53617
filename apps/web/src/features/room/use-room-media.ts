import type { MediaAccess } from '@meetcast/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { captureScreen } from './media/local-media';
import type { MediaStatus, Quality, RemoteFeed } from './media/media-types';
import type { FeedHealth, RepairLogEntry } from './media/media-watchdog';
import { takeEarlyMedia } from './media/early-media';
import { RoomMedia } from './media/room-media';
import type { LocalMedia } from './use-local-media';

declare global {
  interface Window {
    /** Read by the end-to-end tests and the bench: inbound video and the publisher of this participant. */
    __meetcastRoom?: {
      inboundVideo: RoomMedia['inboundVideo'];
      status: () => MediaStatus;
      publisherConnection: () => RTCPeerConnection | undefined;
      /** The connection that receives everyone else's feeds. */
      subscriberConnection: () => RTCPeerConnection | undefined;
      /** What the media watchdog repaired, and why. */
      repairs: () => RepairLogEntry[];
      stopForwardingForTest: (participantId: string) => void;
    };
  }
}

function qualityOf(lossRatio: number, fps: number): Quality {
  if (lossRatio > 0.08 || fps < 5) return 'poor';
  if (lossRatio > 0.02 || fps < 12) return 'fair';
  return 'good';
}

/** Janus media for the call: starts once the room state gives access, follows local track changes. */
export function useRoomMedia(options: {
  access: MediaAccess | null;
  isInRoom: boolean;
  grant: string;
  participantId: string;
  local: LocalMedia;
  /** Participants who say their camera is on: the watchdog expects their video. */
  cameraOn: string[];
}) {
  const { access, isInRoom, grant, participantId, local, cameraOn } = options;
  const [feeds, setFeeds] = useState<RemoteFeed[]>([]);
  const [status, setStatus] = useState<MediaStatus>('connecting');
  const [talking, setTalking] = useState<Record<string, number>>({});
  const [quality, setQuality] = useState<Record<string, Quality>>({});
  const [health, setHealth] = useState<Record<string, FeedHealth>>({});
  const [screenTrack, setScreenTrack] = useState<MediaStreamTrack>();
  const mediaRef = useRef<RoomMedia | undefined>(undefined);
  const localRef = useRef(local);
  useEffect(() => {
    localRef.current = local;
  });
  const room = access?.room;

  useEffect(() => {
    if (!isInRoom || room === undefined || !access) return undefined;
    let currentStatus: MediaStatus = 'connecting';
    const early = takeEarlyMedia(grant, room);
    const media = early ?? new RoomMedia({ grant, room, iceServers: access.ice_servers, participantId });
    media.show(
      {
        onStatus: (next) => {
          currentStatus = next;
          setStatus(next);
        },
        onFeeds: setFeeds,
        onHealth: setHealth,
        onTalking: (id, isTalking) =>
          setTalking((current) => {
            const next = { ...current };
            if (isTalking) next[id] = Date.now();
            else delete next[id];
            return next;
          }),
      },
      {
        audio: () => localRef.current.audioTrack,
        video: () => (localRef.current.isVideoOn ? localRef.current.videoTrack : undefined),
      },
    );
    mediaRef.current = media;
    window.__meetcastRoom = {
      inboundVideo: () => media.inboundVideo(),
      status: () => currentStatus,
      publisherConnection: () => media.publisherConnection(),
      subscriberConnection: () => media.subscriberConnection(),
      repairs: () => [...media.watchdog.log],
      stopForwardingForTest: (id) => media.stopForwardingForTest(id),
    };
    if (!early) media.start().catch(() => media.retry());
    // The network is back: rejoin now (dropping an attempt begun while it was down), not at the
    // next back-off step.
    const onOnline = () => media.networkBack();
    window.addEventListener('online', onOnline);
    const previous = new Map<number, { lost: number; received: number }>();
    const statsTimer = setInterval(() => {
      void media.inboundVideo().then((entries) => {
        const next: Record<string, Quality> = {};
        for (const entry of entries) {
          const before = previous.get(entry.feedId) ?? { lost: 0, received: 0 };
          previous.set(entry.feedId, { lost: entry.packetsLost, received: entry.packetsReceived });
          const lost = entry.packetsLost - before.lost;
          const received = entry.packetsReceived - before.received;
          next[entry.participantId] = qualityOf(
            received + lost > 0 ? lost / (received + lost) : 0,
            entry.framesPerSecond,
          );
        }
        setQuality(next);
      });
    }, 3000);
    return () => {
      window.removeEventListener('online', onOnline);
      clearInterval(statsTimer);
      media.close();
      mediaRef.current = undefined;
      delete window.__meetcastRoom;
      setFeeds([]);
      setHealth({});
    };
    // Media restarts only when the room itself changes, not on every state update.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isInRoom, room, grant, participantId]);

  const cameraOnKey = [...cameraOn].sort().join(' ');
  useEffect(() => {
    mediaRef.current?.setExpectedVideo(cameraOnKey ? cameraOnKey.split(' ') : []);
  }, [cameraOnKey, room, isInRoom]);

  // The camera was turned on/off or switched, or another microphone chosen.
  const videoTrack = local.isVideoOn ? local.videoTrack : undefined;
  useEffect(() => {
    void mediaRef.current?.setVideoTrack(videoTrack).catch(() => undefined);
  }, [videoTrack]);
  useEffect(() => {
    if (local.audioTrack) void mediaRef.current?.setAudioTrack(local.audioTrack).catch(() => undefined);
  }, [local.audioTrack]);

  const stopScreen = useCallback(() => {
    setScreenTrack((track) => {
      track?.stop();
      return undefined;
    });
    mediaRef.current?.stopScreen();
  }, []);

  const startScreen = useCallback(async () => {
    const track = await captureScreen();
    track.addEventListener('ended', stopScreen);
    setScreenTrack(track);
    await mediaRef.current?.startScreen(track);
  }, [stopScreen]);

  const preferLayer = useCallback(
    (feedId: number, layer: 0 | 1 | 2) => mediaRef.current?.preferLayer(feedId, layer),
    [],
  );
  const retry = useCallback(() => mediaRef.current?.retry(), []);
  const networkBack = useCallback(() => mediaRef.current?.networkBack(), []);

  return { feeds, status, talking, quality, health, screenTrack, startScreen, stopScreen, preferLayer, retry, networkBack };
}
