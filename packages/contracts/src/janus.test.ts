import { describe, expect, it } from 'vitest';
import {
  JanusPluginErrorSchema,
  JanusReplySchema,
  JanusRequestSchema,
  StreamingCreatedSchema,
  VideoRoomJoinedSchema,
  VideoRoomParticipantsSchema,
} from './janus.js';
import { janusAck, janusError, janusRequest } from './janus-messages.js';

const sent = (message: object, transaction = 't1') => JanusRequestSchema.safeParse({ ...message, transaction });

describe('Janus requests', () => {
  it('builds every request the schemas accept', () => {
    for (const message of [
      janusRequest.create(),
      janusRequest.attach(1, 'janus.plugin.videoroom'),
      janusRequest.message(1, 2, { request: 'join', ptype: 'publisher' }),
      janusRequest.message(1, 2, { request: 'start' }, { type: 'answer', sdp: 'v=0' }),
      janusRequest.trickle(1, 2, { completed: true }),
      janusRequest.keepalive(1),
      janusRequest.destroy(1),
    ]) {
      expect(sent(message).success, JSON.stringify(message)).toBe(true);
    }
  });

  it('leaves out a jsep the message does not carry', () => {
    expect(janusRequest.message(1, 2, { request: 'watch' })).not.toHaveProperty('jsep');
  });

  it('refuses ids, transactions and offers out of bounds, and requests it does not know', () => {
    expect(sent(janusRequest.keepalive(0)).success).toBe(false);
    expect(sent(janusRequest.keepalive(1.5)).success).toBe(false);
    expect(sent(janusRequest.create(), '').success).toBe(false);
    expect(sent(janusRequest.create(), 'x'.repeat(65)).success).toBe(false);
    expect(sent(janusRequest.message(1, 2, {}, { type: 'offer', sdp: 'x'.repeat(200_001) })).success).toBe(false);
    expect(sent({ janus: 'message', session_id: 1, body: {} }).success).toBe(false); // no handle
    expect(sent({ janus: 'info' }).success).toBe(false);
  });

  it('strips what a request does not name, such as an API secret of its own', () => {
    const parsed = JanusRequestSchema.parse({ ...janusRequest.keepalive(1), transaction: 't', apisecret: 'mine' });
    expect(parsed).toEqual({ janus: 'keepalive', session_id: 1, transaction: 't' });
  });

  it('says ack and error the way Janus does', () => {
    expect(JanusReplySchema.parse(JSON.parse(janusAck(1, 't')))).toEqual({
      janus: 'ack',
      session_id: 1,
      transaction: 't',
    });
    expect(JanusReplySchema.parse(JSON.parse(janusError('t', 'not_allowed')))).toEqual({
      janus: 'error',
      transaction: 't',
      error: { code: 403, reason: 'not_allowed' },
    });
  });
});

describe('Janus answers and events', () => {
  const reads = (message: object) => JanusReplySchema.safeParse(message).success;

  it('reads each kind Janus sends', () => {
    const fromHandle = { session_id: 1, sender: 2 };
    expect(reads({ janus: 'success', transaction: 't', data: { id: 5 } })).toBe(true);
    expect(reads({ janus: 'error', transaction: 't', error: { code: 458, reason: 'No such session' } })).toBe(true);
    expect(reads({ janus: 'ack', transaction: 't', session_id: 1 })).toBe(true);
    expect(
      reads({
        janus: 'event',
        ...fromHandle,
        transaction: 't',
        plugindata: { plugin: 'janus.plugin.videoroom', data: { videoroom: 'joined', id: 9, publishers: [] } },
        jsep: { type: 'offer', sdp: 'v=0' },
      }),
    ).toBe(true);
    expect(reads({ janus: 'trickle', ...fromHandle, candidate: { completed: true } })).toBe(true);
    expect(reads({ janus: 'webrtcup', ...fromHandle })).toBe(true);
    expect(reads({ janus: 'hangup', ...fromHandle, reason: 'DTLS alert' })).toBe(true);
    expect(reads({ janus: 'detached', ...fromHandle })).toBe(true);
    expect(reads({ janus: 'media', ...fromHandle, mid: '0', type: 'video', receiving: true })).toBe(true);
    expect(reads({ janus: 'slowlink', ...fromHandle, mid: '0', uplink: false, lost: 12 })).toBe(true);
    expect(reads({ janus: 'timeout', session_id: 1 })).toBe(true);
  });

  it('reads an offer of Janus beyond what a browser may send', () => {
    expect(reads({ janus: 'event', sender: 2, jsep: { type: 'offer', sdp: 'x'.repeat(300_000) } })).toBe(true);
  });

  it('refuses what is not a Janus answer', () => {
    expect(reads({ janus: 'success' })).toBe(false); // no transaction
    expect(reads({ janus: 'error', transaction: 't' })).toBe(false); // no error
    expect(reads({ janus: 'media', session_id: 1, sender: 2 })).toBe(false); // receiving what?
    expect(reads({ janus: 'trickle', session_id: 1, sender: 2, candidate: { sdpMLineIndex: '0' } })).toBe(false);
    expect(reads({ janus: 'create', transaction: 't' })).toBe(false); // a request
    expect(reads({ transaction: 't' })).toBe(false);
  });
});

describe('plugin data', () => {
  it('reads a publisher join’s answer, and an unreadable list of publishers as none', () => {
    const joined = { videoroom: 'joined', id: 9, publishers: [{ id: 3, display: 'p1:camera' }, { id: 4 }] };
    expect(VideoRoomJoinedSchema.parse(joined).publishers).toEqual([{ id: 3, display: 'p1:camera' }, { id: 4 }]);
    expect(VideoRoomJoinedSchema.parse({ ...joined, publishers: [{ id: -1 }] }).publishers).toEqual([]);
    expect(VideoRoomJoinedSchema.safeParse({ videoroom: 'joined' }).success).toBe(false);
    expect(VideoRoomJoinedSchema.safeParse({ videoroom: 'event', id: 9 }).success).toBe(false);
  });

  it('reads the administrative answers and a plugin’s refusal', () => {
    expect(
      VideoRoomParticipantsSchema.parse({
        videoroom: 'participants',
        participants: [{ id: 1, display: 'p:camera', publisher: true }],
      }).participants,
    ).toHaveLength(1);
    expect(
      StreamingCreatedSchema.parse({
        streaming: 'created',
        stream: { id: 7, ports: [{ type: 'video', mid: 'v', port: 5004 }] },
      }).stream.ports[0]?.port,
    ).toBe(5004);
    expect(JanusPluginErrorSchema.safeParse({ error_code: 426, error: 'No such room' }).success).toBe(true);
    expect(JanusPluginErrorSchema.safeParse({ videoroom: 'success' }).success).toBe(false);
  });
});
