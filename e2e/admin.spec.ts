import { accountCalls, adminCalls } from '@meetcast/contracts';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, readCode, test } from './fixtures';
import type { AdminSeed } from './support/admin-seed';
import { apiPost, mailsTo } from './support/api';
import { HOOK_URL } from './support/ports';

/** Test-only rows for the admin pages (meetings, channels, messages, events), see app-server.ts. */
async function seed(row: AdminSeed): Promise<number> {
  const response = await fetch(`${HOOK_URL}/admin-seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(row),
  });
  if (!response.ok) throw new Error(`seed failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: number }).id;
}

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const now = () => Math.floor(Date.now() / 1000);

/** Clicks the button of the open confirmation dialog and waits for the server's message. */
async function confirm(page: Page, dialogName: string | RegExp, button: string, toast: string | RegExp) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: toast }).first()).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

async function searchFor(page: Page, label: string, text: string) {
  await page.getByRole('searchbox', { name: label }).fill(text);
}

test.describe('admin area', () => {
  // Each test walks a whole page through real dialogs and mail; a busy machine needs more than 60 s.
  test.describe.configure({ timeout: 120_000 });

  test('a regular user is sent home from every /admin route', async ({ page, account, signIn }) => {
    for (const path of [
      '/admin',
      '/admin/',
      '/admin/dashboard',
      '/admin/users',
      '/admin/meetings',
      '/admin/channels',
      '/admin/contacts',
      '/admin/events',
    ]) {
      await signIn(page, account, path);
      await expect(page, path).toHaveURL('/');
    }
    // The server refuses the token as well, whatever the browser does.
    const answer = await apiPost(adminCalls.getUsers, { token: account.token });
    expect(answer.httpStatus).toBe(403);
  });

  test('the dashboard shows figures, charts, live meetings and the audit log', async ({
    page,
    admin,
    signUp,
    signIn,
  }) => {
    const host = await signUp({ username: unique('Host') });
    const name = unique('Town hall ');
    await seed({
      kind: 'meeting',
      hostId: host.user.id,
      name,
      slug: unique('town-'),
      start: now() - 600,
      state: 'live',
      present: 3,
    });
    await signIn(page, admin, '/admin');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    const figures = page.getByRole('list', { name: 'Key figures' });
    await expect(figures.getByText('Users', { exact: true })).toBeVisible();
    await expect(figures.getByText('Scheduled meetings')).toBeVisible();
    await expect(figures.getByText('Meeting minutes this month')).toBeVisible();
    await expect(figures.getByText('Contact messages waiting')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Sign-ups per week' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Meetings created per week' })).toBeVisible();
    const live = page.getByRole('listitem').filter({ hasText: name });
    await expect(live.getByText('Participants: 3')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Audit log' })).toBeVisible();
  });

  test('users: search, sort, change role, send a password reset, disable and enable', async ({
    page,
    admin,
    signUp,
    signIn,
  }) => {
    const tag = unique('zq');
    const ann = await signUp({ username: `Ann ${tag}` });
    await signUp({ username: `Ben ${tag}` });
    await signIn(page, admin, '/admin/users');
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await searchFor(page, 'Search by name, e-mail or ID', tag);
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await table.getByRole('button', { name: 'User' }).click();
    await expect(table.getByRole('columnheader', { name: 'User' })).toHaveAttribute('aria-sort', 'ascending');
    await expect(table.getByRole('row').nth(1)).toContainText(`Ann ${tag}`);

    await table.getByRole('button', { name: `View Ann ${tag}` }).click();
    const detail = page.getByRole('dialog', { name: `Ann ${tag}` });
    await detail.getByRole('button', { name: 'Make administrator' }).click();
    await confirm(
      page,
      `Make Ann ${tag} an administrator?`,
      'Make administrator',
      `The role of Ann ${tag} has been updated.`,
    );
    await expect(detail.getByText('Administrator')).toBeVisible();
    await detail.getByRole('button', { name: 'Make regular user' }).click();
    await confirm(
      page,
      `Make Ann ${tag} a regular user?`,
      'Make regular user',
      `The role of Ann ${tag} has been updated.`,
    );

    const mailsBefore = (await mailsTo(ann.email)).length;
    await detail.getByRole('button', { name: 'Send password reset' }).click();
    await confirm(
      page,
      `Send a password reset to Ann ${tag}?`,
      'Send password reset',
      `A password reset code was sent to ${ann.email}.`,
    );
    expect(await readCode(ann.email, { after: mailsBefore })).toMatch(/^\d{6}$/);

    await detail.getByRole('button', { name: 'Disable' }).click();
    await confirm(page, `Disable Ann ${tag}?`, 'Disable', /1 account disabled/);
    expect((await apiPost(accountCalls.tokenverify, { token: ann.token })).httpStatus).toBe(401);
    const refused = await apiPost(accountCalls.login, { email: ann.email, password: ann.password });
    expect(refused.body.message).toBe('This account has been disabled. Please contact your administrator.');
    await detail.getByRole('button', { name: 'Enable' }).click();
    await confirm(page, `Enable Ann ${tag}?`, 'Enable', /1 account enabled/);
    await page.keyboard.press('Escape');
    await expect(detail).toHaveCount(0);
  });

  test('users: bulk disable and enable, export CSV and delete', async ({ page, admin, signUp, signIn }) => {
    const tag = unique('zb');
    const ann = await signUp({ username: `Ann ${tag}` });
    const ben = await signUp({ username: `Ben ${tag}` });
    await signIn(page, admin, '/admin/users');
    await searchFor(page, 'Search by name, e-mail or ID', tag);
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await table.getByRole('checkbox', { name: `Select Ann ${tag}` }).click();
    await table.getByRole('checkbox', { name: `Select Ben ${tag}` }).click();
    await expect(table.getByRole('checkbox', { name: `Select Ben ${tag}` })).toBeChecked();
    const bulk = page.getByRole('region', { name: 'Actions on the selected rows' });
    await expect(bulk).toContainText('Selected: 2');
    await bulk.getByRole('button', { name: 'Disable' }).click();
    await confirm(page, 'Disable the selected accounts?', 'Disable accounts', /2 accounts disabled/);
    await expect(table.getByText('Disabled')).toHaveCount(2);
    await table.getByRole('checkbox', { name: `Select Ann ${tag}` }).click();
    await table.getByRole('checkbox', { name: `Select Ben ${tag}` }).click();
    await bulk.getByRole('button', { name: 'Enable' }).click();
    await confirm(page, 'Enable the selected accounts?', 'Enable accounts', /2 accounts enabled/);
    await expect(table.getByText('Active')).toHaveCount(2);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^meetcast-users-.*\.csv$/);
    const csv = readFileSync((await file.path()) as string, 'utf8');
    expect(csv).toContain(ann.email);
    expect(csv).toContain(ben.email);

    await table.getByRole('button', { name: `View Ben ${tag}` }).click();
    await page
      .getByRole('dialog', { name: `Ben ${tag}` })
      .getByRole('button', { name: 'Delete account' })
      .click();
    await confirm(page, `Delete Ben ${tag}?`, 'Delete account', /1 account deleted/);
    await expect(table.getByRole('row')).toHaveCount(2);
  });

  test('meetings: end a live meeting for everyone and delete a meeting', async ({ page, admin, signUp, signIn }) => {
    const host = await signUp({ username: unique('Host') });
    const tag = unique('mt');
    await seed({
      kind: 'meeting',
      hostId: host.user.id,
      name: `Live ${tag}`,
      slug: `live-${tag}`,
      start: now() - 300,
      state: 'live',
      present: 2,
    });
    await seed({
      kind: 'meeting',
      hostId: host.user.id,
      name: `Later ${tag}`,
      slug: `later-${tag}`,
      start: now() + 86_400,
    });
    await signIn(page, admin, '/admin/meetings');
    await searchFor(page, 'Search by name, address or host', tag);
    const table = page.getByRole('table', { name: 'Meetings' });
    await expect(table.getByRole('row')).toHaveCount(3);
    const liveRow = table.getByRole('row').filter({ hasText: `Live ${tag}` });
    await expect(liveRow.getByText('Live', { exact: true })).toBeVisible();
    await liveRow.getByRole('button', { name: `End Live ${tag} for everyone` }).click();
    await confirm(
      page,
      `End “Live ${tag}” for everyone?`,
      'End for everyone',
      `The meeting "Live ${tag}" has been ended for everyone.`,
    );
    await expect(liveRow.getByText('Ended', { exact: true })).toBeVisible();
    await expect(liveRow.getByRole('button', { name: `End Live ${tag} for everyone` })).toHaveCount(0);

    await table.getByRole('button', { name: `Delete Later ${tag}` }).click();
    await confirm(page, `Delete “Later ${tag}”?`, 'Delete', `The meeting "Later ${tag}" has been deleted.`);
    await expect(table.getByRole('row')).toHaveCount(2);
  });

  test('channels: hide, show again and delete', async ({ page, admin, signUp, signIn }) => {
    const owner = await signUp({ username: unique('Owner') });
    const tag = unique('ch');
    await seed({ kind: 'channel', ownerId: owner.user.id, name: `Cooking ${tag}`, slug: `cooking-${tag}` });
    await signIn(page, admin, '/admin/channels');
    await searchFor(page, 'Search by name, address or owner', tag);
    const table = page.getByRole('table', { name: 'Channels' });
    const row = table.getByRole('row').filter({ hasText: `Cooking ${tag}` });
    await expect(row.getByText('Visible')).toBeVisible();
    await row.getByRole('button', { name: 'Hide' }).click();
    await confirm(page, `Hide “Cooking ${tag}”?`, 'Hide', `The channel "Cooking ${tag}" is now hidden.`);
    await expect(row.getByText('Hidden')).toBeVisible();
    await row.getByRole('button', { name: 'Show again' }).click();
    await confirm(page, `Show “Cooking ${tag}” again?`, 'Show again', `The channel "Cooking ${tag}" is visible again.`);
    await expect(row.getByText('Visible')).toBeVisible();
    await row.getByRole('button', { name: `Delete Cooking ${tag}` }).click();
    await confirm(page, `Delete “Cooking ${tag}”?`, 'Delete', `The channel "Cooking ${tag}" has been deleted.`);
    await expect(table.getByText('Nothing matches.')).toBeVisible();
  });

  test('contacts list: status, reply by e-mail and delete', async ({ page, admin, signIn }) => {
    const tag = unique('ct');
    const email = `${tag}@example.com`;
    await seed({
      kind: 'contact',
      name: 'Vera Visitor',
      email,
      subject: `Pricing ${tag}`,
      message: 'Hello,\nhow much is it?',
    });
    await signIn(page, admin, '/admin/contacts');
    await searchFor(page, 'Search by name, e-mail, subject or text', tag);
    const table = page.getByRole('table', { name: 'Contacts List' });
    await expect(table.getByText('New', { exact: true })).toBeVisible();
    await table.getByRole('button', { name: `Open “Pricing ${tag}”` }).click();
    const dialog = page.getByRole('dialog', { name: `Pricing ${tag}` });
    await expect(dialog.getByText('how much is it?')).toBeVisible();
    await dialog.getByLabel('Status').selectOption('read');
    await expect(
      page.getByRole('alert').filter({ hasText: 'The message status has been updated.' }).first(),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(table.getByText('Read', { exact: true })).toBeVisible();

    await table.getByRole('button', { name: `Open “Pricing ${tag}”` }).click();
    await expect(dialog.getByLabel('Status')).toHaveValue('read');
    await dialog.getByLabel('Your reply').fill('It is free.\nEnjoy!');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: `Your reply was sent to ${email}.` })
        .first(),
    ).toBeVisible();
    await expect(dialog.getByLabel('Status')).toHaveValue('answered');
    await expect.poll(async () => (await mailsTo(email)).map((mail) => mail.subject)).toContain(`Re: Pricing ${tag}`);
    const [mail] = await mailsTo(email);
    expect(mail?.text).toContain('It is free.');
    expect(mail?.text).toContain('> how much is it?');

    await dialog.getByRole('button', { name: 'Delete' }).click();
    await confirm(page, 'Delete this message?', 'Delete', 'The message has been deleted.');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(table.getByText('Nothing matches.')).toBeVisible();
    // Answered before it was deleted: the table showed the new status.
    expect((await mailsTo(email)).length).toBe(1);
  });

  test('events: calendar and table, delete an event and cancel one occurrence', async ({
    page,
    admin,
    signUp,
    signIn,
  }) => {
    const owner = await signUp({ username: unique('Owner') });
    const tag = unique('ev');
    const today = new Date();
    // Early in the day and early in the month keep every occurrence inside the month shown.
    const first = new Date(today.getFullYear(), today.getMonth(), 1, 9, 0, 0);
    await seed({
      kind: 'event',
      userId: owner.user.id,
      title: `Dentist ${tag}`,
      start: Math.floor(first.getTime() / 1000) + 86_400,
      minutes: 60,
    });
    await seed({
      kind: 'meeting',
      hostId: owner.user.id,
      name: `Weekly ${tag}`,
      slug: `weekly-${tag}`,
      start: Math.floor(first.getTime() / 1000) + 2 * 3600,
      repeat: 7,
    });
    await signIn(page, admin, '/admin/events');
    await expect(page.getByRole('heading', { name: 'Events', level: 1 })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search by title or owner' }).fill(tag);
    const grid = page.getByRole('region', { name: 'Month calendar' });
    await expect(grid.getByRole('button', { name: new RegExp(`Dentist ${tag}`) })).toHaveCount(1);
    const weeklyChips = grid.getByRole('button', { name: new RegExp(`Weekly ${tag}`) });
    await expect.poll(() => weeklyChips.count()).toBeGreaterThanOrEqual(4);

    await grid.getByRole('button', { name: new RegExp(`Dentist ${tag}`) }).click();
    await page
      .getByRole('dialog', { name: `Dentist ${tag}` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await confirm(page, `Delete “Dentist ${tag}”?`, 'Delete', 'The event has been deleted.');
    await expect(grid.getByRole('button', { name: new RegExp(`Dentist ${tag}`) })).toHaveCount(0);

    await page.getByRole('button', { name: 'Table', exact: true }).click();
    const table = page.getByRole('table', { name: 'Events' });
    const rows = table.getByRole('row').filter({ hasText: `Weekly ${tag}` });
    const before = await rows.count();
    expect(before).toBeGreaterThanOrEqual(4);
    await rows
      .nth(1)
      .getByRole('button', { name: `Delete Weekly ${tag}` })
      .click();
    await confirm(
      page,
      new RegExp(`^Cancel “Weekly ${tag}” on `),
      'Cancel this occurrence',
      'The event has been deleted.',
    );
    await expect(rows).toHaveCount(before - 1);
  });
});
