import { and, contacts, eq, meetingInvitees, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFile } from './people-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, uniqueEmail, type SignedIn, type TestServer } from './test-server.js';

type ContactDto = {
  id: number;
  name: string;
  email: string | null;
  phone: string;
  company: string;
  notes: string;
  is_favourite: boolean;
  user: { id: number; username: string } | null;
};
type Listed = { data: ContactDto[]; total: number; page: number; per_page: number };
type Report = {
  format: string;
  added: number;
  merged: number;
  skipped: number;
  rows: { row: number; status: string; name: string; email: string | null; reason: string | null }[];
};

describe.each(BACKENDS)('contacts on %s', (backend) => {
  let server: TestServer, ann: SignedIn, bob: SignedIn;
  beforeAll(async () => void ([server, ann, bob] = await startWithPeople(backend, 'Ann', 'Bob')));
  afterAll(() => server.close());

  const add = (who: SignedIn, fields: Record<string, string>) =>
    server.post<ContactDto>('add-contact.php', { token: who.token, ...fields });
  const list = (who: SignedIn, fields: Record<string, string | number> = {}) =>
    server.post<Listed>('get-contacts.php', { token: who.token, ...fields });

  it('adds, lists with search, sort and pages, updates and refuses a doubled address', async () => {
    const carl = await add(ann, {
      name: 'Carl Zeta',
      email: 'Carl@Example.com',
      phone: '+1 555 0100',
      company: 'Acme',
    });
    expect(carl.httpStatus).toBe(200);
    expect(carl.body.data).toMatchObject({
      name: 'Carl Zeta',
      email: 'carl@example.com',
      is_favourite: false,
      user: null,
    });
    await add(ann, { name: 'alice Alpha', email: 'alice@example.com', is_favourite: '1' });
    await add(ann, { name: 'Bert 50%_off', company: 'Zed' });
    expect((await add(ann, { name: 'Carl again', email: 'carl@example.com' })).httpStatus).toBe(409);
    expect((await add(ann, { name: '', email: 'x@example.com' })).httpStatus).toBe(400);
    expect((await add(ann, { name: 'Bad mail', email: 'not-an-email' })).httpStatus).toBe(400);
    expect((await add(ann, { name: 'Bad phone', phone: 'call me maybe' })).httpStatus).toBe(400);

    const byName = await list(ann);
    expect(byName.body.data?.data.map((c) => c.name)).toEqual(['alice Alpha', 'Bert 50%_off', 'Carl Zeta']);
    expect(byName.body.data?.total).toBe(3);
    const desc = await list(ann, { sort: 'company', order: 'desc' });
    expect(desc.body.data?.data[0]?.company).toBe('Zed');
    expect((await list(ann, { search: '%_' })).body.data?.data.map((c) => c.name)).toEqual(['Bert 50%_off']);
    expect((await list(ann, { search: 'acme' })).body.data?.data.map((c) => c.name)).toEqual(['Carl Zeta']);
    expect((await list(ann, { favourites: 1 })).body.data?.data.map((c) => c.name)).toEqual(['alice Alpha']);
    const page2 = await list(ann, { per_page: 2, page: 2 });
    expect(page2.body.data).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page2.body.data?.data.map((c) => c.name)).toEqual(['Carl Zeta']);
    expect((await list(ann, { sort: 'nope' })).httpStatus).toBe(400);

    const id = carl.body.data?.id as number;
    const updated = await server.post<ContactDto>('update-contact.php', {
      token: ann.token,
      id,
      is_favourite: 'true',
      notes: 'Met at the fair',
    });
    expect(updated.body.data).toMatchObject({ is_favourite: true, notes: 'Met at the fair', phone: '+1 555 0100' });
    const clash = await server.post('update-contact.php', { token: ann.token, id, email: 'alice@example.com' });
    expect(clash.httpStatus).toBe(409);
  });

  it('deletes with undo, and the address can be reused after deletion', async () => {
    const dora = await add(ann, { name: 'Dora', email: 'dora@example.com' });
    const id = dora.body.data?.id as number;
    expect((await server.post('delete-contact.php', { token: ann.token, id })).httpStatus).toBe(200);
    expect((await list(ann, { search: 'dora' })).body.data?.total).toBe(0);
    expect((await server.post('update-contact.php', { token: ann.token, id, name: 'X' })).httpStatus).toBe(404);
    const restored = await server.post<ContactDto>('restore-contact.php', { token: ann.token, id });
    expect(restored.body.data?.name).toBe('Dora');
    expect((await list(ann, { search: 'dora' })).body.data?.total).toBe(1);
    expect((await server.post('restore-contact.php', { token: ann.token, id })).httpStatus).toBe(404);

    await server.post('delete-contact.php', { token: ann.token, id });
    const again = await add(ann, { name: 'Dora New', email: 'dora@example.com' });
    expect(again.httpStatus).toBe(200);
    expect((await server.post('restore-contact.php', { token: ann.token, id })).httpStatus).toBe(404);
  });

  it('keeps contacts private: another user can neither read nor change them', async () => {
    const secret = await add(ann, { name: 'Secret Sam', email: 'sam@example.com' });
    const id = secret.body.data?.id as number;
    expect((await list(bob, { search: 'sam' })).body.data?.total).toBe(0);
    const attempts = [
      await server.post('update-contact.php', { token: bob.token, id, name: 'Hacked' }),
      await server.post('delete-contact.php', { token: bob.token, id }),
      await server.post('restore-contact.php', { token: bob.token, id }),
      await server.post('call-contact.php', { token: bob.token, id }),
      await server.post('invite-contact.php', { token: bob.token, id, meeting_id: 1 }),
    ];
    expect(attempts.map((a) => a.httpStatus)).toEqual([404, 404, 404, 404, 404]);
    const [row] = await server.database.handle.db.select().from(contacts).where(eq(contacts.id, id));
    expect(row).toMatchObject({ name: 'Secret Sam', deletedAt: null });
    expect((await server.post('get-contacts.php', {})).httpStatus).toBe(401);
    const bobExport = await server.post<{ csv: string }>('export-contacts.php', { token: bob.token });
    expect(bobExport.body.data?.csv).not.toContain('Secret Sam');
  });

  it('imports CSV with good and bad rows, merging duplicates by e-mail', async () => {
    const eve = await server.signUp({ username: 'Eve' });
    await add(eve, { name: 'Existing Erin', email: 'erin@example.com', phone: '' });
    const csv = [
      'Name,E-mail Address,Phone,Company,Notes',
      'Frank Good,frank@example.com,+44 20 7946 0000,Frankly Ltd,first',
      'Bad Mail,not-an-address,,,',
      ',,,Nameless Inc,',
      'Erin Import,ERIN@example.com,+1 555 0199,Erin Co,',
      'Frank Twice,frank@example.com,,Other,',
      '"Quoted, Name",quoted@example.com,,,"multi',
      'line note"',
      'Phone Bad,phonebad@example.com,call me,,',
      `${'L'.repeat(130)},long@example.com,,,`,
      ',only.email@example.com,,,',
    ].join('\r\n');
    const answer = await postFile<Report>(
      server,
      'import-contacts.php',
      { token: eve.token },
      {
        filename: 'contacts.csv',
        type: 'text/csv',
        bytes: csv,
      },
    );
    expect(answer.httpStatus).toBe(200);
    const report = answer.body.data as Report;
    expect(report).toMatchObject({ format: 'csv', added: 3, merged: 2, skipped: 4 });
    const byLine = Object.fromEntries(report.rows.map((row) => [row.row, row]));
    expect(byLine[2]).toMatchObject({ status: 'added', email: 'frank@example.com' });
    expect(byLine[3]).toMatchObject({ status: 'skipped', reason: 'The e-mail address is not valid.' });
    expect(byLine[4]).toMatchObject({ status: 'skipped', reason: 'Neither a name nor an e-mail address.' });
    expect(byLine[5]).toMatchObject({ status: 'merged', name: 'Existing Erin' });
    expect(byLine[5]?.reason).toContain('Existing Erin');
    expect(byLine[6]).toMatchObject({ status: 'merged' });
    expect(byLine[6]?.reason).toContain('line 2');
    expect(byLine[7]).toMatchObject({ status: 'added', name: 'Quoted, Name' });
    expect(byLine[9]).toMatchObject({ status: 'skipped', reason: 'The phone number is not valid.' });
    expect(byLine[10]?.status).toBe('skipped');
    expect(byLine[11]).toMatchObject({ status: 'added', name: 'only.email@example.com' });

    const listed = await list(eve, { per_page: 100 });
    expect(listed.body.data?.total).toBe(4);
    const erin = listed.body.data?.data.find((c) => c.email === 'erin@example.com');
    expect(erin).toMatchObject({ name: 'Existing Erin', phone: '+1 555 0199', company: 'Erin Co' });
    const frank = listed.body.data?.data.find((c) => c.email === 'frank@example.com');
    expect(frank).toMatchObject({ name: 'Frank Good', company: 'Frankly Ltd' });
    expect(listed.body.data?.data.find((c) => c.email === 'quoted@example.com')?.notes).toBe('multi\nline note');

    const reimport = await postFile<Report>(
      server,
      'import-contacts.php',
      { token: eve.token },
      {
        filename: 'contacts.csv',
        type: 'text/csv',
        bytes: csv,
      },
    );
    expect(reimport.body.data).toMatchObject({ added: 0, merged: 5 });
    expect((await list(eve)).body.data?.total).toBe(4);
  });

  it('imports vCard 3.0, 4.0 and 2.1 cards and reports an unreadable one', async () => {
    const gil = await server.signUp({ username: 'Gil' });
    const vcf = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Hana Card',
      'N:Card;Hana;;;',
      'EMAIL;TYPE=INTERNET:hana@example.com',
      'TEL;TYPE=CELL:+81 3 1234 5678',
      'ORG:Card Co;Sales',
      'NOTE:Likes tea\\, and cake',
      'CATEGORIES:starred',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:4.0',
      'N:Doe;John;;;',
      'EMAIL:john@example.com',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:2.1',
      'N:Smith;Jo',
      'FN:Jo Smith',
      'EMAIL;PREF;INTERNET:jo@example.com',
      'NOTE;ENCODING=QUOTED-PRINTABLE:Caf=C3=A9 owner',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN this line is broken',
      'END:VCARD',
    ].join('\r\n');
    const answer = await postFile<Report>(
      server,
      'import-contacts.php',
      { token: gil.token },
      {
        filename: 'people.vcf',
        type: 'text/vcard',
        bytes: vcf,
      },
    );
    expect(answer.httpStatus).toBe(200);
    expect(answer.body.data).toMatchObject({ format: 'vcard', added: 3, merged: 0, skipped: 1 });
    expect(answer.body.data?.rows[3]).toMatchObject({ row: 4, status: 'skipped' });
    const listed = (await list(gil)).body.data?.data ?? [];
    expect(listed.map((c) => c.name)).toEqual(['Hana Card', 'Jo Smith', 'John Doe']);
    expect(listed[0]).toMatchObject({
      company: 'Card Co',
      phone: '+81 3 1234 5678',
      notes: 'Likes tea, and cake',
      is_favourite: true,
    });
    expect(listed[1]?.notes).toBe('Café owner');
  });

  it('refuses files that are not contacts', async () => {
    const upload = (bytes: string | Uint8Array) =>
      postFile(server, 'import-contacts.php', { token: ann.token }, { filename: 'x.csv', type: 'text/csv', bytes });
    expect((await upload('')).httpStatus).toBe(400);
    const noColumns = await upload('foo,bar\n1,2\n');
    expect(noColumns.httpStatus).toBe(400);
    expect(noColumns.body.message).toMatch(/column/);
    expect((await upload(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]))).httpStatus).toBe(400);
    expect((await server.post('import-contacts.php', { token: ann.token, file: 'name,email' })).httpStatus).toBe(400);
    expect((await server.post('import-contacts.php', { token: ann.token })).httpStatus).toBe(400);
  });

  it('exports CSV that imports back, with formula cells neutralised', async () => {
    const hal = await server.signUp({ username: 'Hal' });
    await add(hal, { name: '=HYPERLINK("http://evil")', email: 'evil@example.com' });
    await add(hal, { name: 'Ivy', email: 'ivy@example.com', phone: '+1 555 0111', notes: 'a, "quoted" note' });
    const exported = await server.post<{ filename: string; csv: string }>('export-contacts.php', { token: hal.token });
    expect(exported.body.data?.filename).toMatch(/^meetcast-contacts-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = exported.body.data?.csv ?? '';
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv).toContain('+1 555 0111');
    const ida = await server.signUp({ username: 'Ida' });
    const back = await postFile<Report>(
      server,
      'import-contacts.php',
      { token: ida.token },
      {
        filename: 'back.csv',
        type: 'text/csv',
        bytes: csv,
      },
    );
    expect(back.body.data).toMatchObject({ added: 2, skipped: 0 });
    const ivy = (await list(ida, { search: 'ivy' })).body.data?.data[0];
    expect(ivy).toMatchObject({ phone: '+1 555 0111', notes: 'a, "quoted" note' });
  });

  it('calls a contact who has an account: instant meeting and an in-app join link', async () => {
    const callee = await server.signUp({ username: 'Callee <b>' });
    const contact = await add(ann, { name: 'Callee', email: callee.email.toUpperCase() });
    expect(contact.body.data?.user).toMatchObject({ id: callee.user.id, username: 'Callee <b>' });
    const stranger = await add(ann, { name: 'No account', email: uniqueEmail('stranger') });

    const call = await server.post<{ url_slug: string; meeting_id: number }>('call-contact.php', {
      token: ann.token,
      id: contact.body.data?.id,
    });
    expect(call.httpStatus).toBe(200);
    expect(call.body.data?.url_slug).toMatch(/^[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    const [meeting] = await server.database.handle.db
      .select()
      .from(meetings)
      .where(eq(meetings.slug, call.body.data?.url_slug ?? ''));
    expect(meeting).toMatchObject({ hostId: ann.user.id, isSchedule: 0 });
    const notes = await server.post<{ data: { text: string }[] }>('get-user-notification.php', { token: callee.token });
    const text = notes.body.data?.data[0]?.text ?? '';
    expect(text).toContain(`/room/${call.body.data?.url_slug}`);
    expect(text).toContain('<b>Ann</b>');

    expect((await server.post('call-contact.php', { token: ann.token, id: stranger.body.data?.id })).httpStatus).toBe(
      400,
    );
  });

  it('invites a contact to an upcoming meeting the caller hosts', async () => {
    const guest = await server.signUp({ username: 'Guest' });
    const contact = await add(ann, { name: 'Guest', email: guest.email });
    const db = server.database.handle.db;
    const hour = 3600 * 1000;
    const [mine] = await db
      .insert(meetings)
      .values({
        hostId: ann.user.id,
        name: 'Planning',
        slug: `plan-${Date.now()}`,
        isSchedule: 1,
        startTime: new Date(Date.now() + hour),
        endTime: new Date(Date.now() + 2 * hour),
      })
      .returning();
    const [bobs] = await db
      .insert(meetings)
      .values({
        hostId: bob.user.id,
        name: "Bob's",
        slug: `bob-${Date.now()}`,
        isSchedule: 1,
        startTime: new Date(Date.now() + hour),
        endTime: new Date(Date.now() + 2 * hour),
      })
      .returning();
    const offered = await server.post<{ data: { id: number; name: string }[] }>('get-meetings-to-invite.php', {
      token: ann.token,
    });
    expect(offered.body.data?.data.map((m) => m.name)).toContain('Planning');
    expect(offered.body.data?.data.map((m) => m.name)).not.toContain("Bob's");

    const invite = { token: ann.token, id: contact.body.data?.id, meeting_id: mine?.id };
    expect((await server.post('invite-contact.php', invite)).httpStatus).toBe(200);
    expect((await server.post('invite-contact.php', invite)).httpStatus).toBe(409);
    expect((await server.post('invite-contact.php', { ...invite, meeting_id: bobs?.id })).httpStatus).toBe(404);
    const rows = await db
      .select()
      .from(meetingInvitees)
      .where(and(eq(meetingInvitees.meetingId, mine?.id ?? 0)));
    expect(rows).toMatchObject([{ email: guest.email, userId: guest.user.id }]);
    const mail = await server.mail.waitFor(guest.email, (m) => m.subject.includes('Planning'));
    expect(mail.text).toContain(`/room/${mine?.slug}`);
    const notes = await server.post<{ data: { text: string }[] }>('get-user-notification.php', { token: guest.token });
    expect(notes.body.data?.data[0]?.text).toContain('Planning');
  });
});
