import { accountCalls, meetingCalls, peopleCalls } from '@meetcast/contracts';
import { expect, test, type Account } from './fixtures';
import { callAs } from './support/people';
import { uniqueEmail } from './support/api';

async function firstContactId(account: Account) {
  const answer = await callAs(account, peopleCalls.getContacts, {});
  return answer.data[0]?.id;
}

test.describe('contacts', () => {
  // Several server round trips each, on a machine that may be busy.
  test.beforeEach(() => test.slow());
  test('adds with validation, searches, edits, favourites, and deletes with undo', async ({
    page,
    account,
    signIn,
  }) => {
    await signIn(page, account, '/contacts');
    await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
    await expect(page.getByText('No contacts yet')).toBeVisible();

    await page.getByRole('button', { name: 'Add contact' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a contact' });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByText('Enter a name (up to 120 characters).')).toBeVisible();
    await dialog.getByLabel('Name').fill('Grace Hopper');
    await dialog.getByLabel('E-mail').fill('not-an-address');
    await dialog.getByLabel('Phone').fill('call me');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByText('Enter a valid e-mail address, or leave it empty.')).toBeVisible();
    await expect(dialog.getByText('Use digits, spaces and + ( ) - only (up to 40 characters).')).toBeVisible();
    await dialog.getByLabel('E-mail').fill('grace@example.com');
    await dialog.getByLabel('Phone').fill('+1 555 0100');
    await dialog.getByLabel('Company').fill('Navy');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('row', { name: /Grace Hopper/ })).toBeVisible();

    await callAs(account, peopleCalls.addContact, {
      name: 'Alan Turing',
      email: 'alan@example.com',
      company: 'Bletchley',
    });
    await page.reload();
    await expect(page.getByRole('rowheader')).toHaveText([/Alan Turing/, /Grace Hopper/]);
    // A second address that is already in the book is refused by the server, with its message.
    await page.getByRole('button', { name: 'Add contact' }).first().click();
    const again = page.getByRole('dialog', { name: 'Add a contact' });
    await again.getByLabel('Name').fill('Grace again');
    await again.getByLabel('E-mail').fill('GRACE@example.com');
    await again.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText('Grace Hopper already has this e-mail address in your contacts.')).toBeVisible();
    // What was typed is not lost without asking.
    await again.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('alertdialog', { name: 'Discard what you typed?' })
      .getByRole('button', { name: 'Discard' })
      .click();
    await expect(again).toBeHidden();

    await page.getByRole('searchbox', { name: 'Search by name, e-mail, phone or company' }).fill('bletch');
    await expect(page.getByRole('rowheader')).toHaveText([/Alan Turing/]);
    await page.getByRole('searchbox').fill('');
    await page.getByRole('button', { name: 'Company' }).click();
    await page.getByRole('button', { name: 'Company' }).click();
    await expect(page.getByRole('columnheader', { name: 'Company' })).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByRole('rowheader')).toHaveText([/Grace Hopper/, /Alan Turing/]);

    await page.getByRole('button', { name: 'Edit Alan Turing' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the contact' });
    await expect(edit.getByLabel('Company')).toHaveValue('Bletchley');
    await edit.getByLabel('Notes').fill('Codebreaker');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();

    await page.getByRole('button', { name: 'Favourite: Alan Turing' }).click();
    await expect(page.getByRole('button', { name: 'Favourite: Alan Turing' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByLabel('Favourites only').check();
    await expect(page.getByRole('rowheader')).toHaveText([/Alan Turing/]);
    await page.getByLabel('Favourites only').uncheck();

    await page.getByRole('button', { name: 'Delete Grace Hopper' }).click();
    await expect(page.getByText('Grace Hopper was deleted.')).toBeVisible();
    await expect(page.getByRole('row', { name: /Grace Hopper/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByRole('row', { name: /Grace Hopper/ })).toBeVisible();
  });

  test("counts contacts with each language's plural rules: 1 contact, 2 контакта, 5 kontaktów", async ({
    page,
    account,
    signIn,
  }) => {
    await callAs(account, peopleCalls.addContact, { name: 'Only One' });
    await signIn(page, account, '/contacts');
    await expect(page.getByText('1 contact · page 1 of 1', { exact: true })).toBeVisible();
    for (const name of ['Second', 'Third', 'Fourth', 'Fifth']) await callAs(account, peopleCalls.addContact, { name });
    await page.goto('/contacts?lng=pl');
    await expect(page.getByText('5 kontaktów · strona 1 z 1', { exact: true })).toBeVisible();
    await callAs(account, peopleCalls.deleteContact, { id: (await firstContactId(account)) ?? 0 });
    await callAs(account, peopleCalls.deleteContact, { id: (await firstContactId(account)) ?? 0 });
    await callAs(account, peopleCalls.deleteContact, { id: (await firstContactId(account)) ?? 0 });
    await page.goto('/contacts?lng=ru');
    await expect(page.getByText('2 контакта · страница 1 из 1', { exact: true })).toBeVisible();
  });

  test('imports a file with good and bad rows and shows what happened to each', async ({ page, account, signIn }) => {
    await callAs(account, peopleCalls.addContact, { name: 'Existing Erin', email: 'erin@example.com' });
    await signIn(page, account, '/contacts');
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import contacts' });
    await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled();
    const csv = [
      'Name,E-mail,Phone,Company',
      'Ada Lovelace,ada@example.com,+44 20 0000,Analytical',
      'Broken Mail,not-an-address,,',
      ',,,Nobody Inc',
      'Erin Import,erin@example.com,+1 555 0199,Erin Co',
    ].join('\n');
    await dialog
      .getByLabel('File')
      .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(dialog.getByRole('status')).toHaveText('1 added, 1 merged, 2 skipped.');
    const report = dialog.getByRole('table', { name: 'What happened to each row' });
    await expect(report.getByRole('row', { name: /Broken Mail/ })).toContainText('The e-mail address is not valid.');
    await expect(report.getByRole('row').filter({ hasText: 'Neither a name nor an e-mail address.' })).toContainText(
      '4',
    );
    await expect(report.getByRole('row', { name: /Existing Erin/ })).toContainText('Merged');
    await dialog.getByLabel('Show added rows too').check();
    await expect(report.getByRole('row', { name: /Ada Lovelace/ })).toContainText('Added');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('rowheader')).toHaveText([/Ada Lovelace/, /Existing Erin/]);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^meetcast-contacts-.*\.csv$/);
    const text = await (await file.createReadStream()).toArray();
    expect(Buffer.concat(text).toString('utf8')).toContain('Ada Lovelace,ada@example.com');
  });

  test('Call now starts a meeting and tells the contact; Invite to meeting sends an invitation', async ({
    page,
    account,
    signUp,
    signIn,
  }) => {
    const friend = await signUp({ username: 'Friendly Fran' });
    await callAs(account, peopleCalls.addContact, { name: 'Fran', email: friend.email });
    await callAs(account, peopleCalls.addContact, { name: 'Outsider', email: uniqueEmail('outsider') });
    const start = Math.floor(Date.now() / 1000) + 3600;
    await callAs(account, meetingCalls.addMeeting, {
      name: 'Quarterly review',
      slug: `review-${Date.now().toString(36)}`,
      is_schedule: 1,
      start_time: start,
      end_time: start + 3600,
      is_private: 2,
      is_password: 2,
      password: '',
      repeat: 0,
    });
    await signIn(page, account, '/contacts');
    await expect(page.getByRole('row', { name: /Fran/ })).toContainText('On Meetcast as Friendly Fran');
    await expect(page.getByRole('row', { name: /Outsider/ }).getByRole('button', { name: 'Call now' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Invite Outsider to a meeting' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite Outsider to a meeting' });
    await expect(invite.getByRole('button', { name: 'Send the invitation' })).toBeDisabled();
    const option = await invite.getByRole('option', { name: /Quarterly review/ }).getAttribute('value');
    await invite.getByLabel('Meeting').selectOption(option ?? '');
    await invite.getByRole('button', { name: 'Send the invitation' }).click();
    await expect(page.getByText('The invitation was sent.')).toBeVisible();

    await page.getByRole('row', { name: /Fran/ }).getByRole('button', { name: 'Call now' }).click();
    await expect(page).toHaveURL(/\/room\/[a-z]{3}-[a-z]{4}-[a-z]{3}/);
    const slug = new URL(page.url()).pathname.split('/').pop() ?? '';
    const notes = await callAs(friend, accountCalls.getUserNotification);
    expect(notes.data[0]?.text).toContain(`/room/${slug}`);
  });
});
