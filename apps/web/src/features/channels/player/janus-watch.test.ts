import { describe, expect, it } from 'vitest';
import { readJanusReply } from './janus-watch';

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
});
