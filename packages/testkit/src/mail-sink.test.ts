import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailSink } from './mail-sink.js';

/** One plain SMTP conversation, each command sent after the reply to the one before. */
async function send(smtpUrl: string, to: string, subject: string, text: string) {
  const socket = connect(Number(new URL(smtpUrl).port), '127.0.0.1');
  socket.setEncoding('utf8');
  let received = '';
  const reply = () =>
    new Promise<string>((resolve) => {
      const check = () => {
        const done = /^(\d{3}) [^\n]*\n/m.exec(received);
        if (!done) return;
        socket.off('data', onData);
        received = received.slice(done.index + done[0].length);
        resolve(done[1] ?? '');
      };
      const onData = (chunk: string) => {
        received += chunk;
        check();
      };
      socket.on('data', onData);
      check();
    });
  expect(await reply()).toBe('220');
  for (const [command, expected] of [
    ['EHLO test.example', '250'],
    ['MAIL FROM:<meetcast@example.com>', '250'],
    [`RCPT TO:<${to}>`, '250'],
    ['DATA', '354'],
    [`To: ${to}\r\nSubject: ${subject}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n.`, '250'],
  ] as const) {
    socket.write(`${command}\r\n`);
    expect(await reply()).toBe(expected);
  }
  socket.end('QUIT\r\n');
}

describe('the SMTP sink', () => {
  const sink = new MailSink();
  let smtpUrl: string;
  let httpUrl: string;
  beforeAll(async () => {
    smtpUrl = await sink.start();
    httpUrl = await sink.serveHttp();
  });
  afterAll(() => sink.close());

  it('keeps what arrives and finds the code mailed to an address', async () => {
    await send(smtpUrl, 'Ann@Example.com', 'Your code 123456', 'Hello Ann');
    expect(await sink.codeFor('Ann@Example.com')).toBe('123456');
    expect(sink.messages[0]).toMatchObject({ to: ['Ann@Example.com'], subject: 'Your code 123456', text: 'Hello Ann' });
  });

  it('lists the mails to an address over HTTP, in any case, without their raw text', async () => {
    await send(smtpUrl, 'bob@example.com', 'Welcome', 'Hello Bob');
    await sink.waitFor('bob@example.com');
    expect(await (await fetch(`${httpUrl}/healthz`)).text()).toBe('ok');
    const listed = await (await fetch(`${httpUrl}/messages?to=ANN@example.com`)).json();
    expect(listed).toEqual([{ to: ['ann@example.com'], subject: 'Your code 123456', text: 'Hello Ann', index: 0 }]);
    const all = (await (await fetch(`${httpUrl}/messages`)).json()) as { index: number; to: string[] }[];
    expect(all.map((mail) => [mail.index, mail.to])).toEqual([
      [0, ['ann@example.com']],
      [1, ['bob@example.com']],
    ]);
    expect((await fetch(`${httpUrl}/elsewhere`)).status).toBe(404);
  });
});
