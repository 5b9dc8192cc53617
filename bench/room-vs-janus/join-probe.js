// Installed by bench/room-vs-janus.ts in a joiner's page before the page's own scripts, the same in
// both worlds (our room and the bare janus.js page). It times, inside the page so that no test-driver
// round trip counts, from the click on "Join" / "Join meeting" to the first decoded video frame (any
// inbound video of any peer connection: a joiner receives only the participant already there), and
// marks the first time each step of the join happens, in ms after the click, to show where time goes.
// The page's objects are wrapped only to watch them: every call goes on unchanged.
(() => {
  const GIVE_UP_MS = 30_000;
  const POLL_MS = 10;
  const probe = { clickAt: undefined, firstFrameMs: undefined, isDone: false, marks: {} };
  window.__joinProbe = probe;
  const mark = (step, at = performance.now()) => {
    if (probe.clickAt === undefined || probe.isDone || step in probe.marks) return;
    probe.marks[step] = Math.round(at - probe.clickAt);
  };

  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (probe.clickAt !== undefined || !/^Join( meeting)?$/.test(button?.textContent?.trim() ?? '')) return;
      probe.clickAt = performance.now();
      void watchFrames();
    },
    true,
  );

  const connections = new Set();
  async function watchFrames() {
    while (performance.now() - probe.clickAt < GIVE_UP_MS) {
      for (const pc of connections) {
        const report = await pc.getStats().catch(() => new Map());
        report.forEach((entry) => {
          if (entry.type !== 'inbound-rtp' || entry.kind !== 'video') return;
          if (entry.packetsReceived > 0) mark('first video packet received');
          if (entry.pliCount > 0) mark('keyframe asked for (PLI sent)');
          if (entry.framesDecoded > 0 && probe.firstFrameMs === undefined) {
            mark('first frame decoded');
            probe.firstFrameMs = performance.now() - probe.clickAt;
          }
        });
      }
      if (probe.firstFrameMs !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    probe.isDone = true;
  }

  // Peer connections: a remote offer makes a subscriber (Janus offers), a remote answer a publisher.
  const nativeSetRemote = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = function (description, ...rest) {
    const role = description?.type === 'offer' ? 'subscriber' : 'publisher';
    mark(`${role} pc: remote ${description?.type} set`);
    if (!connections.has(this)) {
      connections.add(this);
      this.addEventListener('iceconnectionstatechange', () => {
        if (this.iceConnectionState === 'connected') mark(`${role} pc: ICE connected`);
      });
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState === 'connected') mark(`${role} pc: DTLS connected`);
      });
    }
    const applied = nativeSetRemote.call(this, description, ...rest);
    applied.then(() => mark(`${role} pc: remote ${description?.type} applied`));
    return applied;
  };

  // The subscriber's answer, step by step: the browser's own work between the offer and `start`.
  for (const [method, step] of [
    ['createAnswer', 'answer created'],
    ['setLocalDescription', 'local description set'],
  ]) {
    const native = RTCPeerConnection.prototype[method];
    RTCPeerConnection.prototype[method] = async function (...args) {
      const isAnswering = this.remoteDescription?.type === 'offer';
      if (isAnswering) mark(`subscriber pc: ${method} called`);
      const result = await native.apply(this, args);
      if (isAnswering) mark(`subscriber pc: ${step}`);
      return result;
    };
  }

  const nativeGetUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    mark('getUserMedia asked');
    const stream = await nativeGetUserMedia(constraints);
    mark('getUserMedia answered');
    return stream;
  };

  // WebSockets: Socket.IO (our room) and the Janus API (through our /janus proxy, or straight to Janus).
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(url, protocols) {
      super(url, protocols);
      this.isJanus = [protocols].flat().includes('janus-protocol');
      const name = this.isJanus ? 'janus ws' : 'socket.io ws';
      mark(`${name}: opening`);
      this.addEventListener('open', () => mark(`${name}: open`));
      this.addEventListener('message', (event) =>
        this.isJanus ? onJanusReceived(event.data) : onSocketIoReceived(String(event.data)),
      );
    }

    send(data) {
      if (this.isJanus) onJanusSent(data);
      super.send(data);
    }
  };

  // Socket.IO packets: 40 = namespace connected, 42 = an event (the room's state comes first).
  function onSocketIoReceived(text) {
    if (text.startsWith('40')) mark('socket.io: room namespace connected');
    else if (text.startsWith('42')) mark('socket.io: first room event received');
  }

  // HTTP requests made after the click (API calls, a lazily loaded part of the app, locales).
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (probe.clickAt === undefined || entry.startTime < probe.clickAt) continue;
      const what = `${entry.initiatorType} ${new URL(entry.name).pathname}`;
      mark(`${what}: sent`, entry.startTime);
      mark(`${what}: answered`, entry.responseEnd);
    }
  }).observe({ type: 'resource' });

  // The page's main thread busy for 50 ms or more at a time (rendering, parsing): messages and
  // offers that arrive meanwhile wait for it.
  let longTasks = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (probe.clickAt === undefined || entry.startTime < probe.clickAt) continue;
      longTasks += 1;
      mark(`main thread long task ${longTasks}: from`, entry.startTime);
      mark(`main thread long task ${longTasks}: to`, entry.startTime + entry.duration);
    }
  }).observe({ type: 'longtask' });

  const handles = { publisher: undefined, subscriber: undefined };
  let createTransaction;
  const parse = (text) => {
    try {
      return JSON.parse(text);
    } catch {
      return {};
    }
  };
  function onJanusSent(text) {
    if (probe.clickAt === undefined || probe.isDone) return;
    const message = parse(text);
    const body = message.body ?? {};
    if (message.janus === 'create') {
      createTransaction = message.transaction;
      mark('janus: create session sent');
    } else if (message.janus === 'attach') mark('janus: first attach sent');
    else if (body.request === 'join') {
      handles[body.ptype] = message.handle_id;
      mark(`${body.ptype}: join sent`);
    } else if (body.request === 'configure' && message.jsep) mark('publisher: offer sent (configure)');
    else if (body.request === 'configure' && message.handle_id === handles.subscriber) {
      mark(`subscriber: configure sent (${JSON.stringify(body.streams ?? body).slice(0, 60)})`);
    } else if (body.request === 'start') mark('subscriber: answer sent (start)');
  }
  function onJanusReceived(text) {
    if (probe.clickAt === undefined || probe.isDone) return;
    const message = parse(text);
    const data = message.plugindata?.data ?? {};
    const from = message.sender === handles.publisher ? 'publisher' : 'subscriber';
    if (message.janus === 'success' && message.transaction === createTransaction) mark('janus: session created');
    else if (data.videoroom === 'joined') mark('publisher: joined');
    else if (data.videoroom === 'attached') mark('subscriber: offer received (attached)');
    else if (data.started === 'ok') mark('subscriber: started');
    else if (message.jsep?.type === 'answer') mark('publisher: answer received');
    else if (message.janus === 'webrtcup') mark(`${from}: janus says webrtcup`);
    else if (data.substream !== undefined) mark(`subscriber: janus now relays simulcast layer ${data.substream}`);
  }
})();
