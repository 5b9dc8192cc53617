import { JanusReplySchema, type JanusReply } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';
import { readJanusReply } from './janus-watch';

/** What the hand reader must make of a message, as the shared schema reads it. */
function expectedOf(parsed: JanusReply) {
  const event = parsed.janus === 'event' ? parsed : undefined;
  const pluginError = event?.plugindata?.data.error;
  return {
    janus: parsed.janus,
    transaction: 'transaction' in parsed ? parsed.transaction : undefined,
    session_id: 'session_id' in parsed ? parsed.session_id : undefined,
    sender: 'sender' in parsed ? parsed.sender : undefined,
    pluginError: typeof pluginError === 'string' ? pluginError : undefined,
    jsep: event?.jsep ? { type: event.jsep.type, sdp: event.jsep.sdp } : undefined,
    candidate:
      parsed.janus === 'trickle' ? { ...parsed.candidate, completed: parsed.candidate.completed === true } : undefined,
    error: parsed.janus === 'error' ? parsed.error : undefined,
  };
}

describe('readJanusReply', () => {
  it('reads the offer the proxy’s watch brings, with its session and handle', () => {
    const reply = readJanusReply(
      JSON.stringify({
        janus: 'event',
        session_id: 11,
        sender: 22,
        plugindata: { plugin: 'janus.plugin.streaming', data: { streaming: 'event', result: { status: 'preparing' } } },
        jsep: { type: 'offer', sdp: 'v=0' },
      }),
    );
    expect(reply).toMatchObject({ janus: 'event', session_id: 11, sender: 22, jsep: { type: 'offer', sdp: 'v=0' } });
    expect(reply?.pluginError).toBeUndefined();
  });

  it('reads refusals from Janus and from the plugin', () => {
    expect(
      readJanusReply('{"janus":"error","transaction":"t1","error":{"code":458,"reason":"No such session"}}'),
    ).toMatchObject({
      transaction: 't1',
      error: { code: 458, reason: 'No such session' },
    });
    expect(readJanusReply('{"janus":"event","plugindata":{"data":{"error":"No such mountpoint"}}}')?.pluginError).toBe(
      'No such mountpoint',
    );
  });

  it('tells a candidate from the end of the candidates', () => {
    expect(
      readJanusReply(
        '{"janus":"trickle","candidate":{"candidate":"candidate:1 1 udp 1 1.2.3.4 5 typ host","sdpMLineIndex":0}}',
      )?.candidate,
    ).toEqual({
      candidate: 'candidate:1 1 udp 1 1.2.3.4 5 typ host',
      sdpMid: undefined,
      sdpMLineIndex: 0,
      completed: false,
    });
    expect(readJanusReply('{"janus":"trickle","candidate":{"completed":true}}')?.candidate?.completed).toBe(true);
  });

  it('drops what is not a Janus message and fields of the wrong type', () => {
    expect(readJanusReply('not json')).toBeUndefined();
    expect(readJanusReply('[1,2]')).toBeUndefined();
    expect(readJanusReply('{"transaction":"t1"}')).toBeUndefined();
    const odd = readJanusReply(
      '{"janus":"event","session_id":"11","jsep":{"type":"pranswer","sdp":"v=0"},"error":"x"}',
    );
    expect(odd).toMatchObject({ janus: 'event', session_id: undefined, jsep: undefined, error: undefined });
  });

  it('reads every message the shared Janus schemas read, field for field', () => {
    const fromHandle = { session_id: 11, sender: 22 };
    const messages = [
      { janus: 'ack', session_id: 11, transaction: 't1' },
      { janus: 'success', transaction: 't2', data: { id: 11 } },
      { janus: 'error', transaction: 't3', error: { code: 458, reason: 'No such session' } },
      {
        janus: 'event',
        ...fromHandle,
        transaction: 'proxy-watch',
        plugindata: { plugin: 'janus.plugin.streaming', data: { streaming: 'event', result: { status: 'preparing' } } },
        jsep: { type: 'offer', sdp: 'v=0' },
      },
      {
        janus: 'event',
        ...fromHandle,
        plugindata: { plugin: 'janus.plugin.streaming', data: { error: 'No such mountpoint' } },
      },
      { janus: 'trickle', ...fromHandle, candidate: { candidate: 'candidate:1', sdpMid: 'v', sdpMLineIndex: 0 } },
      { janus: 'trickle', ...fromHandle, candidate: { completed: true } },
      { janus: 'webrtcup', ...fromHandle },
      { janus: 'media', ...fromHandle, mid: 'v', type: 'video', receiving: true },
      { janus: 'slowlink', ...fromHandle, mid: 'v', uplink: false, lost: 3 },
      { janus: 'hangup', ...fromHandle, reason: 'Close PC' },
      { janus: 'detached', ...fromHandle },
      { janus: 'timeout', session_id: 11 },
    ];
    for (const message of messages) {
      const parsed = JanusReplySchema.parse(message);
      expect(readJanusReply(JSON.stringify(message)), message.janus).toEqual(expectedOf(parsed));
    }
  });
});
