import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

function decodeEncodedWords(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g,
    (_whole, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(decodeQuotedPrintable(data.replace(/_/g, ' ')), 'binary').toString('utf8'),
  );
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Reads the headers and the text body of a simple (single-part or multipart) message. */
export function parseMail(raw: string, to: string[]): ReceivedMail {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? '';
  let body = rest.join('\n\n');
  const boundary = /boundary="?([^";]+)"?/i.exec(header('Content-Type'))?.[1];
  let encoding = header('Content-Transfer-Encoding').toLowerCase();
  if (boundary) {
    const textPart = body.split(`--${boundary}`).find((part) => /content-type:\s*text\/plain/i.test(part)) ?? '';
    const [partHead = '', ...partBody] = textPart.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
    encoding = /content-transfer-encoding:\s*(\S+)/i.exec(partHead)?.[1]?.toLowerCase() ?? '';
    body = partBody.join('\n\n');
  }
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(decodeQuotedPrintable(body), 'binary').toString('utf8')
        : body;
  return { to, subject: decodeEncodedWords(header('Subject')), text: bytes.trim(), raw };
}

/**
 * A real SMTP server on a loopback port that keeps what it receives: in this process for the API
 * tests, and read over HTTP (`serveHttp`) when the suite runs the sink in a process of its own.
 */
export class MailSink {
  readonly messages: ReceivedMail[] = [];
  private readonly waiters: (() => void)[] = [];
  private http: Server | undefined;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((recipient) => recipient.address);
        this.messages.push(parseMail(Buffer.concat(chunks).toString('binary'), to));
        this.waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });

  /** Listens on `port` (a free one by default); returns the SMTP_URL for the server under test. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  /**
   * A small HTTP reader on `port` (a free one by default; its address is returned): GET /healthz, and GET /messages?to=… listing the mails to an
   * address (in any case; all without `to`), oldest first, each with its `index` among all received
   * and without its raw text. Addresses are given in lower case.
   */
  async serveHttp(port = 0): Promise<string> {
    const http = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/healthz') {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return;
      }
      if (url.pathname === '/messages' && request.method === 'GET') {
        const to = url.searchParams.get('to')?.toLowerCase();
        const listed = this.messages
          .map(({ raw: _raw, ...mail }, index) => ({
            ...mail,
            to: mail.to.map((address) => address.toLowerCase()),
            index,
          }))
          .filter((mail) => !to || mail.to.includes(to));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
        return;
      }
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    this.http = http;
    await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  }

  /** Waits for a message to an address that matches, newest first. */
  async waitFor(to: string, matches: (mail: ReceivedMail) => boolean = () => true, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...this.messages].reverse().find((mail) => mail.to.includes(to) && matches(mail));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async codeFor(to: string, after = 0): Promise<string> {
    const mail = await this.waitFor(to, (m) => /\b\d{6}\b/.test(m.subject) && this.messages.indexOf(m) >= after);
    return /\b(\d{6})\b/.exec(mail.subject)?.[1] ?? '';
  }

  async close() {
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
