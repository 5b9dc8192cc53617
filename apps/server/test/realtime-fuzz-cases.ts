import { ROOM_MESSAGE } from '@meetcast/contracts';
import fc from 'fast-check';

/** One seed for every target: a failure is the same case on every run, and on every machine. */
export const FUZZ_SEED = 20_261_203;

export const sampleOf = <T>(arbitrary: fc.Arbitrary<T>, count: number, salt: number) =>
  fc.sample(arbitrary, { seed: FUZZ_SEED + salt, numRuns: count });

/** Just over what each listener takes in one frame: Socket.IO (1 MB), /janus (512 KB), /janus-watch (128 KB). */
export const HUGE = { socketIo: 1_100_000, janus: 600_000, janusWatch: 200_000 };

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('', '\u0000', 'a\u0000b', '\uD800', '\u202Eexe.txt', '__proto__', 'constructor', '%00', '{}'),
  fc.constantFrom('x'.repeat(5000), '9'.repeat(400), 'NaN', '1e309', '-1'),
);

/** Values of every shape: wrong types, nesting, prototype keys, binary. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(text, fc.constantFrom('__proto__', 'type', 'text', 'grant', '_placeholder', 'num')),
      tie('value'),
      {
        maxKeys: 4,
      },
    ),
    fc.constant(JSON.parse('{"__proto__": {"isAdmin": true}, "type": "chat.send"}') as unknown),
    fc.constant({ _placeholder: true, num: 7 }),
    fc.constant(Array.from({ length: 200 }).reduce<unknown>((inner) => ({ a: inner }), 1)),
  ),
})).value;

const ROOM_TYPES = [
  'media.state',
  'chat.send',
  'hand.set',
  'reaction.send',
  'host.mute',
  'host.mute-all',
  'host.stop-video',
  'host.lower-hand',
  'host.remove',
  'host.admit',
  'host.deny',
  'host.promote',
  'host.lock',
  'host.end',
  'poll.create',
  'poll.vote',
  'poll.close',
  'no.such.type',
];

/** A room message of a real type with fields of the wrong type, missing or extra. */
const nearRoomMessage = fc.record(
  {
    type: fc.constantFrom(...ROOM_TYPES),
    text: hostileValue,
    audio: hostileValue,
    raised: hostileValue,
    emoji: hostileValue,
    participant_id: hostileValue,
    locked: hostileValue,
    poll_id: hostileValue,
    question: hostileValue,
    options: hostileValue,
    choice: hostileValue,
  },
  { requiredKeys: ['type'] },
);

/** What a Socket.IO client emits: an event name (ours, unknown, reserved on the server) and its arguments. */
export interface SocketEmit {
  event: string;
  args: unknown[];
  withAck: boolean;
}

export const socketEmit: fc.Arbitrary<SocketEmit> = fc.record({
  event: fc.oneof(
    { weight: 4, arbitrary: fc.constant(ROOM_MESSAGE) },
    { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('room:drop', 'room-event', 'viewer-chat-event', 'error', 'constructor', '__proto__'),
    },
  ),
  args: fc.oneof(
    fc.array(hostileValue, { maxLength: 4 }),
    nearRoomMessage.map((message) => [message]),
    fc.constant<unknown[]>([{ type: 'chat.send', text: 'y'.repeat(HUGE.socketIo) }]),
  ),
  withAck: fc.boolean(),
});

/**
 * Raw Engine.IO frames on a Socket.IO WebSocket, past what any client library would send: broken
 * packet types, namespaces, JSON, acknowledgement ids and binary placeholders without attachments.
 */
export const engineFrame: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '',
    '4',
    '40',
    '40/room,',
    '40/room,{',
    '40/room,{"grant":1}',
    '40/viewer-chat,{"protocol":1,"meetId":{}}',
    '40/nope,{}',
    '41/room,',
    '42/room,["room-message"',
    '42/room,[]',
    '42/room,{}',
    '42/room,1["room-message",{}]',
    '43/room,99["x"]',
    '451-/room,["room-message",{"_placeholder":true,"num":0}]',
    '45999999999-["a"]',
    '452-["a",{"_placeholder":true,"num":5}]',
    '46/room,[]',
    '49',
    '2probe',
    '3',
    '5',
    '6',
    '1',
    `42["${'e'.repeat(2000)}"]`,
    `42[${'['.repeat(5000)}`,
    `42/room,${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
  ),
  fc.string({ maxLength: 60 }).map((tail) => `4${tail}`),
  fc.string({ maxLength: 60 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
);

/**
 * What a page might say to Janus through a proxy: real verbs with wrong ids and bodies, management
 * requests, unknown verbs, non-JSON. `$session` and `$handle` become the connection's own ids.
 */
export const janusFrame: fc.Arbitrary<string | Buffer> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          janus: fc.oneof(
            fc.constantFrom('create', 'attach', 'message', 'trickle', 'keepalive', 'destroy', 'detach', 'hangup'),
            fc.constantFrom('claim', 'info', 'ping', 'server_info', 'add_token', 'list_sessions', 'unknown'),
            hostileValue,
          ),
          transaction: fc.oneof(fc.string({ minLength: 1, maxLength: 10 }), hostileValue, fc.constant('t'.repeat(100))),
          session_id: fc.oneof(fc.constant('$session'), fc.integer(), hostileValue),
          handle_id: fc.oneof(fc.constant('$handle'), fc.integer(), hostileValue),
          plugin: fc.constantFrom('janus.plugin.videoroom', 'janus.plugin.streaming', 'janus.plugin.echotest', ''),
          apisecret: fc.string({ maxLength: 10 }),
          body: fc.oneof(
            hostileValue,
            fc.record(
              {
                request: fc.constantFrom(
                  'join',
                  'configure',
                  'publish',
                  'unpublish',
                  'start',
                  'pause',
                  'leave',
                  'switch',
                  'watch',
                  'create',
                  'destroy',
                  'kick',
                  'rtp_forward',
                  'list',
                  'listparticipants',
                  'enable_recording',
                ),
                ptype: fc.constantFrom('publisher', 'subscriber', 'listener', 'x'),
                room: hostileValue,
                pin: hostileValue,
                id: hostileValue,
                display: hostileValue,
                grant: hostileValue,
                feed: hostileValue,
                streams: hostileValue,
                subscriber_handle: hostileValue,
                secret: hostileValue,
              },
              { requiredKeys: ['request'] },
            ),
          ),
          jsep: fc.oneof(
            hostileValue,
            fc.record({
              type: fc.constantFrom('offer', 'answer', 'x'),
              sdp: fc.oneof(text, fc.constant('v=0\r\n'.repeat(5000))),
            }),
          ),
          candidate: hostileValue,
        },
        { requiredKeys: ['janus'] },
      )
      .map((message) => JSON.stringify(message)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: hostileValue.map((value) => JSON.stringify(value) ?? 'undefined') },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.constantFrom('{', '[]', 'null', '{"janus":null}', '{"__proto__":{"janus":"create"}}') },
);
