import { describe, expect, it, vi } from 'vitest';
import { CameraPublication } from './camera-publication';
import type * as janusApi from './janus-api';
import { switchVideoTrack, type PluginHandle } from './janus-api';

// janus.js only loads in a browser; the handle below stands in for its plugin handle.
vi.mock('janus-gateway', () => ({ default: {} }));
vi.mock('./janus-api', async (original) => ({
  ...(await original<typeof janusApi>()),
  switchVideoTrack: vi.fn(async () => undefined),
}));

describe('CameraPublication', () => {
  it('switches a track only once the offer being made has its transceivers', async () => {
    const steps: string[] = [];
    let offerMade = (_jsep: unknown) => undefined as void;
    const handle = {
      createOffer: ({ success }: { success: (jsep: unknown) => void }) => (offerMade = success),
      send: ({ message }: { message: { request: string } }) => steps.push(message.request),
    } as unknown as PluginHandle;
    vi.mocked(switchVideoTrack).mockImplementation(async () => void steps.push('switch'));
    const track = {} as MediaStreamTrack;
    const camera = new CameraPublication(
      () => ({ audio: () => undefined, video: () => track }),
      () => handle,
      () => undefined,
    );

    const published = camera.publish(handle);
    // The call's first render sets the same track while the click's media is offering it.
    const switched = camera.setVideoTrack(track);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(steps).toEqual([]);
    offerMade({ type: 'offer', sdp: '' });
    await Promise.all([published, switched]);
    expect(steps).toEqual(['configure', 'switch']);
  });
});
