import WebSocket from 'ws';

/** A browser's side of the Janus protocol, spoken through our /janus proxy. */
export class JanusBrowser {
  private counter = 0;
  readonly messages: Record<string, unknown>[] = [];
  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => this.messages.push(JSON.parse(String(raw)) as Record<string, unknown>));
  }
  static async open(url: string) {
    const socket = new WebSocket(url, 'janus-protocol');
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    });
    return new JanusBrowser(socket);
  }
  async request(message: Record<string, unknown>, until: (m: Record<string, unknown>) => boolean = () => true) {
    const transaction = `t${this.counter++}`;
    this.socket.send(JSON.stringify({ ...message, transaction }));
    for (let waited = 0; waited < 5000; waited += 20) {
      const reply = this.messages.find((m) => m.transaction === transaction && m.janus !== 'ack' && until(m));
      if (reply) return reply;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no answer to ${JSON.stringify(message)}`);
  }
  /** A session with a VideoRoom handle that joins the room as this participant's camera (no media). */
  async publishCamera() {
    const session = ((await this.request({ janus: 'create' })).data as { id: number }).id;
    const attached = await this.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' });
    const handle = (attached.data as { id: number }).id;
    const joined = await this.request(
      { janus: 'message', session_id: session, handle_id: handle, body: { request: 'join', ptype: 'publisher' } },
      (m) => m.janus === 'event',
    );
    return { session, handle, feedId: (joined.plugindata as { data: { id: number } }).data.id };
  }
  /** The feed ids in the room, asked over a handle of this connection (Janus answers a handle it knows). */
  async feedsSeenBy(session: number, handle: number) {
    const body = { request: 'listparticipants' };
    const answer = await this.request({ janus: 'message', session_id: session, handle_id: handle, body });
    const data = (answer.plugindata as { data?: { participants?: { id: number }[] } } | undefined)?.data;
    return { answer, feeds: (data?.participants ?? []).map((p) => p.id) };
  }
}
