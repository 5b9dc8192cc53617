import { and, count, eq, isNull, users, verificationCodes } from '@meetcast/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './test-database.js';
import { startTestServer, uniqueEmail, type TestServer } from './test-server.js';

describe.each(BACKENDS)('accounts on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server.close());

  async function liveCodes(email: string) {
    const [{ live } = { live: -1 }] = await server.database.handle.db
      .select({ live: count() })
      .from(verificationCodes)
      .innerJoin(users, eq(users.id, verificationCodes.userId))
      .where(and(eq(users.email, email), isNull(verificationCodes.consumedAt)));
    return live;
  }

  /** Runs `requests` while another connection holds the account's codes locked, until `waiting` of them wait. */
  async function withCodesLocked<T>(email: string, waiting: number, requests: () => Promise<T>): Promise<T> {
    const locker = new pg.Client({ connectionString: server.database.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query(
        'select c.id from verification_codes c join users u on u.id = c.user_id where u.email = $1 for update',
        [email],
      );
      const answers = requests();
      await expect
        .poll(
          async () => {
            // A transaction sees one snapshot of the activity statistics unless told to take a new one.
            await locker.query('select pg_stat_clear_snapshot()');
            const { rows } = await locker.query<{ waiting: number }>(
              "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
            );
            return rows[0]?.waiting;
          },
          { timeout: 15_000, interval: 50 },
        )
        .toBeGreaterThanOrEqual(waiting);
      await locker.query('commit');
      return await answers;
    } finally {
      await locker.end();
    }
  }

  it('makes the first account the administrator and later ones regular users', async () => {
    const first = await server.signUp({ username: 'Ada' });
    const second = await server.signUp({ username: 'Bob' });
    expect(first.user.role_id).toBe(1);
    expect(second.user.role_id).toBe(2);
    expect(first.user).toMatchObject({ username: 'Ada', avatar: null });
  });

  it('stores argon2id hashes and only token hashes', async () => {
    const account = await server.signUp();
    const rows = await server.database.handle.db.select().from(users);
    const row = rows.find((candidate) => candidate.email === account.email);
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    const verified = await server.post<{ token: string }>('tokenverify.php', { token: account.token });
    expect(verified.body.data?.token).toBe(account.token);
    expect(account.token.length).toBeGreaterThanOrEqual(43);
  });

  it('verifies tokens and answers 401 for missing or unknown ones', async () => {
    const account = await server.signUp();
    const ok = await server.post<{ data: { email: string } }>('tokenverify.php', { token: account.token });
    expect(ok.httpStatus).toBe(200);
    expect(ok.body).toMatchObject({ status: 'success', data: { data: { email: account.email } } });
    for (const token of [undefined, '', 'x', 'a'.repeat(43)]) {
      const answer = await server.post('tokenverify.php', { token });
      expect(answer.httpStatus).toBe(401);
      expect(answer.body.status).toBe('error');
      expect(answer.body.message).toMatch(/session/i);
    }
    const bearer = await server.post('tokenverify.php', {}, { authorization: `Bearer ${account.token}` });
    expect(bearer.httpStatus).toBe(200);
  });

  it('signs in, refuses wrong passwords with one message, and revokes at sign-out', async () => {
    const account = await server.signUp();
    const wrong = await server.post('login.php', { email: account.email, password: 'wrong password' });
    const unknown = await server.post('login.php', { email: uniqueEmail('nobody'), password: 'wrong password' });
    expect(wrong.httpStatus).toBe(401);
    expect(unknown.body.message).toBe(wrong.body.message);
    const login = await server.post<{ token: string }>('login.php', {
      email: account.email.toUpperCase(),
      password: account.password,
    });
    expect(login.httpStatus).toBe(200);
    const token = login.body.data?.token ?? '';
    expect((await server.post('logout.php', { token })).httpStatus).toBe(200);
    expect((await server.post('tokenverify.php', { token })).httpStatus).toBe(401);
    expect((await server.post('tokenverify.php', { token: account.token })).httpStatus).toBe(200);
  });

  it('refuses sign-in before confirmation and mails a new code', async () => {
    const email = uniqueEmail();
    await server.post('signup.php', { username: 'Pending', email, password: 'long enough pass' });
    await server.mail.codeFor(email);
    const before = server.mail.messages.length;
    const login = await server.post('login.php', { email, password: 'long enough pass' });
    expect(login.httpStatus).toBe(403);
    const code = await server.mail.codeFor(email, before);
    const confirmed = await server.post('confirm-signup.php', { email, code });
    expect(confirmed.httpStatus).toBe(200);
  });

  it('answers sign-up of a confirmed address like any other and mails its owner instead', async () => {
    const account = await server.signUp();
    const again = await server.post('signup.php', {
      username: 'Mallory',
      email: account.email,
      password: 'another pass 1',
    });
    expect(again.body.status).toBe('success');
    const notice = await server.mail.waitFor(account.email, (mail) => /tried to sign up/i.test(mail.subject));
    expect(notice.text).toMatch(/already have one/);
    const login = await server.post('login.php', { email: account.email, password: account.password });
    expect(login.httpStatus).toBe(200);
  });

  it('ends a code after five wrong tries', async () => {
    const email = uniqueEmail();
    const before = server.mail.messages.length;
    await server.post('signup.php', { username: 'Guess', email, password: 'long enough pass' });
    const code = await server.mail.codeFor(email, before);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await server.post('confirm-signup.php', { email, code: wrongCode })).httpStatus).toBe(400);
    }
    expect((await server.post('confirm-signup.php', { email, code })).httpStatus).toBe(400);
  });

  it('counts simultaneous wrong tries one by one, so the right code no longer works after five', async () => {
    const email = uniqueEmail('guesses');
    const before = server.mail.messages.length;
    await server.post('signup.php', { username: 'Guess', email, password: 'long enough pass' });
    const code = await server.mail.codeFor(email, before);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => server.post('confirm-signup.php', { email, code: wrongCode })),
    );
    expect(answers.map((answer) => answer.httpStatus)).toEqual(Array(20).fill(400));
    const [row] = await server.database.handle.db
      .select({ attempts: verificationCodes.attempts })
      .from(verificationCodes)
      .innerJoin(users, eq(users.id, verificationCodes.userId))
      .where(eq(users.email, email));
    expect(row?.attempts).toBe(5);
    expect((await server.post('confirm-signup.php', { email, code })).httpStatus).toBe(400);
  });

  it('keeps one live code per account and purpose when codes are asked for at once', async () => {
    const email = uniqueEmail('codes');
    const before = server.mail.messages.length;
    await server.post('signup.php', { username: 'Pending', email, password: 'long enough pass' });
    await server.mail.codeFor(email, before);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        index % 2 === 0
          ? server.post('signup.php', { username: 'Pending', email, password: 'long enough pass' })
          : server.post('resend-signup-code.php', { email }),
      ),
    );
    expect(answers.map((answer) => answer.httpStatus)).toEqual(Array(6).fill(200));
    expect(await liveCodes(email)).toBe(1);
  });

  // The race made certain: the account's codes are held locked while the requests arrive, so every
  // one of them has read the code before any may write.
  it.runIf(backend === 'postgres')('counts tries that were all waiting at once', async () => {
    const email = uniqueEmail('waiting');
    const before = server.mail.messages.length;
    await server.post('signup.php', { username: 'Guess', email, password: 'long enough pass' });
    const code = await server.mail.codeFor(email, before);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const answers = await withCodesLocked(email, 5, () =>
      Promise.all(Array.from({ length: 5 }, () => server.post('confirm-signup.php', { email, code: wrongCode }))),
    );
    expect(answers.map((answer) => answer.httpStatus)).toEqual(Array(5).fill(400));
    expect((await server.post('confirm-signup.php', { email, code })).httpStatus).toBe(400);
  });

  it.runIf(backend === 'postgres')('retires earlier codes even when new ones were asked for at once', async () => {
    const email = uniqueEmail('issuing');
    const before = server.mail.messages.length;
    await server.post('signup.php', { username: 'Pending', email, password: 'long enough pass' });
    await server.mail.codeFor(email, before);
    const answers = await withCodesLocked(email, 3, () =>
      Promise.all(Array.from({ length: 3 }, () => server.post('resend-signup-code.php', { email }))),
    );
    expect(answers.map((answer) => answer.httpStatus)).toEqual(Array(3).fill(200));
    expect(await liveCodes(email)).toBe(1);
  });

  it('resets a password without revealing whether the account exists, and signs everybody out', async () => {
    const account = await server.signUp();
    const existing = await server.post('forgot-password.php', { email: account.email });
    const missing = await server.post('forgot-password.php', { email: uniqueEmail('ghost') });
    expect(existing.httpStatus).toBe(200);
    expect(missing.httpStatus).toBe(200);
    expect(missing.body.message.replace(/\S+@\S+/, '')).toBe(existing.body.message.replace(/\S+@\S+/, ''));
    const mail = await server.mail.waitFor(account.email, (m) => /reset/i.test(m.subject));
    const code = /\b(\d{6})\b/.exec(mail.subject)?.[1] ?? '';
    const reset = await server.post('reset-password.php', { email: account.email, code, password: 'brand new secret' });
    expect(reset.httpStatus).toBe(200);
    expect((await server.post('tokenverify.php', { token: account.token })).httpStatus).toBe(401);
    expect((await server.post('login.php', { email: account.email, password: account.password })).httpStatus).toBe(401);
    expect((await server.post('login.php', { email: account.email, password: 'brand new secret' })).httpStatus).toBe(
      200,
    );
    const reused = await server.post('reset-password.php', { email: account.email, code, password: 'third secret 33' });
    expect(reused.httpStatus).toBe(400);
  });

  // The code for a known address is stored and mailed after the answer, so the answer cannot take
  // longer for it. Proved by holding the account's row locked: storing a code (which references the
  // row) waits for the lock, and the answer must not.
  it.runIf(backend === 'postgres')('answers a reset request before any work on the account', async () => {
    const account = await server.signUp();
    const locker = new pg.Client({ connectionString: server.database.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select id from users where email = $1 for update', [account.email]);
      const started = Date.now();
      const answer = await Promise.race([
        server.post('forgot-password.php', { email: account.email }),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 3000)),
      ]);
      expect(answer?.httpStatus).toBe(200);
      expect(Date.now() - started).toBeLessThan(3000);
      const before = server.mail.messages.length;
      await locker.query('rollback');
      expect(await server.mail.codeFor(account.email, before)).toMatch(/^\d{6}$/);
    } finally {
      await locker.end();
    }
  });

  it('answers simultaneous sign-ups with one address like any sign-up of a taken address', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        server.post('signup.php', { username: 'Racer', email, password: 'race race race' }),
      ),
    );
    expect(answers.map((answer) => answer.httpStatus)).toEqual(Array(12).fill(200));
    const [{ total } = { total: -1 }] = await server.database.handle.db
      .select({ total: count() })
      .from(users)
      .where(eq(users.email, email));
    expect(total).toBe(1);
  });

  it('translates messages when the request names a language', async () => {
    const answer = await server.post('login.php', { email: uniqueEmail(), password: 'nope nope', lng: 'de' });
    expect(answer.httpStatus).toBe(401);
    expect(answer.body.message).not.toBe('Wrong e-mail address or password.');
  });

  it('refuses bad input with 4xx and writes nothing', async () => {
    const db = server.database.handle.db;
    const [{ total: before } = { total: 0 }] = await db.select({ total: count() }).from(users);
    const long = 'x'.repeat(10_000);
    const cases: [string, string | Uint8Array, string][] = [
      ['missing fields', '', 'application/x-www-form-urlencoded'],
      ['empty username', 'username=&email=a%40b.co&password=12345678', 'application/x-www-form-urlencoded'],
      ['overlong', `username=${long}&email=a%40b.co&password=12345678`, 'application/x-www-form-urlencoded'],
      ['malformed email', 'username=abc&email=not-an-email&password=12345678', 'application/x-www-form-urlencoded'],
      ['sql injection', "username=abc&email=x'%20OR%201%3D1--&password=12345678", 'application/x-www-form-urlencoded'],
      [
        'html in email',
        'username=abc&email=%3Cscript%3E%40x.co&password=12345678',
        'application/x-www-form-urlencoded',
      ],
      [
        'repeated fields',
        'username=a1&username=b2&email=a%40b.co&password=12345678',
        'application/x-www-form-urlencoded',
      ],
      ['non-utf8 escape', 'username=%FF%FE&email=a%40b.co&password=12345678', 'application/x-www-form-urlencoded'],
      ['non-utf8 bytes', new Uint8Array([0x75, 0x3d, 0xff, 0xfe]), 'application/x-www-form-urlencoded'],
      ['nul byte', 'username=a%00b&email=a%40b.co&password=12345678', 'application/x-www-form-urlencoded'],
      ['wrong type', JSON.stringify({ username: 5, email: ['a@b.co'], password: {} }), 'application/json'],
      ['broken json', '{"username":', 'application/json'],
      ['wrong content type', 'username=abc', 'text/plain'],
      ['xml', '<a/>', 'application/xml'],
    ];
    for (const [name, body, contentType] of cases) {
      const response = await fetch(`${server.baseUrl}/api/signup.php`, {
        method: 'POST',
        body,
        headers: { 'content-type': contentType },
      });
      expect(response.status, name).toBeGreaterThanOrEqual(400);
      expect(response.status, name).toBeLessThan(500);
      const answer = (await response.json()) as { status: string; message: string };
      expect(answer.status, name).toBe('error');
      expect(answer.message.length, name).toBeGreaterThan(5);
    }
    const [{ total: after } = { total: 0 }] = await db.select({ total: count() }).from(users);
    expect(after).toBe(before);
  });

  it('answers unknown API paths with 404 in the contract shape', async () => {
    const response = await fetch(`${server.baseUrl}/api/does-not-exist.php`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 'error' });
  });
});
