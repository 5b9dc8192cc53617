/**
 * The mail sink of the end-to-end suite: a real SMTP server that the app server sends to, plus a tiny
 * HTTP API (GET /messages?to=…) from which the tests read what arrived. Started by playwright.config.ts.
 */
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { parseMail, type ReceivedMail } from '../../apps/server/test/mail-sink.js';
import { E2E_PORTS } from './ports.js';

interface StoredMail extends ReceivedMail {
  index: number;
  receivedAt: number;
}

const messages: StoredMail[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData: (stream, session, callback) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const to = session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase());
      const mail = parseMail(Buffer.concat(chunks).toString('binary'), to);
      messages.push({ ...mail, index: messages.length, receivedAt: Date.now() });
      callback();
    });
  },
});

const api = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname === '/healthz') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  if (url.pathname === '/messages' && request.method === 'GET') {
    const to = url.searchParams.get('to')?.toLowerCase();
    const found = messages.filter((mail) => !to || mail.to.includes(to));
    const body = found.map(({ raw: _raw, ...rest }) => rest);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return;
  }
  response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
});

smtp.listen(E2E_PORTS.smtp, '127.0.0.1');
api.listen(E2E_PORTS.mailApi, '127.0.0.1');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    api.close();
    smtp.close(() => process.exit(0));
  });
}
