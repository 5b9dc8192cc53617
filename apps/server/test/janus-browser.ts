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
}
