// The bare world of bench/room-vs-janus.ts: janus.js alone joins the VideoRoom the way our client
// does (room-media.ts, subscriptions.ts), with nothing of ours in between: a publisher handle joins,
// offers camera and microphone and configures; on `joined` (or a later `publishers` event) one
// subscriber handle joins the feeds already there, answers and starts. The query string says where:
// server, apisecret, room, pin, display, and simulcast=1 to publish three layers as our client does.
import Janus from '/janus.es.js';

const params = new URLSearchParams(window.location.search);
const room = Number(params.get('room'));
const pin = params.get('pin');
const isSimulcast = params.get('simulcast') === '1';
const button = document.getElementById('join');
const status = document.getElementById('status');
const video = document.getElementById('remote');

const fail = (step) => (error) => {
  status.textContent = `${step} failed: ${String(error)}`;
};

Janus.init({
  debug: ['warn', 'error'],
  dependencies: Janus.useDefaultDependencies({ adapter: window.adapter }),
  callback: () => {
    button.disabled = false;
    status.textContent = 'ready';
  },
});

button.addEventListener('click', () => {
  button.disabled = true;
  status.textContent = 'joining';
  const janus = new Janus({
    server: params.get('server'),
    apisecret: params.get('apisecret'),
    success: () => joinAsPublisher(janus),
    error: fail('session'),
  });
});

function joinAsPublisher(janus) {
  let handle;
  janus.attach({
    plugin: 'janus.plugin.videoroom',
    success: (attached) => {
      handle = attached;
      handle.send({ message: { request: 'join', room, pin, ptype: 'publisher', display: params.get('display') } });
    },
    error: fail('attach'),
    webrtcState: (isUp) => {
      // The bench waits for this before it lets anyone join the participant already there.
      if (isUp) status.textContent = 'publishing';
    },
    onmessage: (message, jsep) => {
      if (jsep) handle.handleRemoteJsep({ jsep });
      if (message.videoroom === 'joined') publish(handle);
      if (message.publishers?.length) subscribe(janus, message.publishers);
    },
  });
}

function publish(handle) {
  handle.createOffer({
    tracks: [
      { type: 'audio', capture: true, recv: false },
      { type: 'video', capture: true, recv: false, simulcast: isSimulcast },
    ],
    success: (offer) => handle.send({ message: { request: 'configure', audio: true, video: true }, jsep: offer }),
    error: fail('offer'),
  });
}

/** One subscriber handle for every feed, as our client has: the first feeds join it, later ones are added. */
let subscriber;
function subscribe(janus, publishers) {
  const streams = publishers.map((publisher) => ({ feed: publisher.id }));
  if (subscriber) {
    void subscriber.then((handle) => handle.send({ message: { request: 'subscribe', streams } }));
    return;
  }
  subscriber = new Promise((resolve) => {
    let handle;
    janus.attach({
      plugin: 'janus.plugin.videoroom',
      success: (attached) => {
        handle = attached;
        handle.send({ message: { request: 'join', room, pin, ptype: 'subscriber', streams, use_msid: false } });
        resolve(handle);
      },
      error: fail('subscriber attach'),
      onmessage: (_message, jsep) => {
        if (!jsep) return;
        handle.createAnswer({
          jsep,
          tracks: [{ type: 'data', capture: false }],
          success: (answer) => handle.send({ message: { request: 'start', room }, jsep: answer }),
          error: fail('answer'),
        });
      },
      onremotetrack: (track, _mid, isOn) => {
        if (track.kind === 'video' && isOn) video.srcObject = new MediaStream([track]);
      },
    });
  });
}
