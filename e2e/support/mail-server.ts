/**
 * The mail sink of the end-to-end suite: the test kit's SMTP sink, which the app server sends to, with
 * its HTTP reader (GET /messages?to=…) from which the tests read what arrived. Started by playwright.config.ts.
 */
import { MailSink } from '@meetcast/testkit/mail-sink';
import { E2E_PORTS } from './ports.js';

const sink = new MailSink();
await sink.start(E2E_PORTS.smtp);
await sink.serveHttp(E2E_PORTS.mailApi);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sink.close().then(() => process.exit(0));
  });
}
