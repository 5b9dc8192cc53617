import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect, test } from './fixtures';

/**
 * A saved RTMP address says what is known of it (ADR 023): "not tried yet" until a test
 * push or a broadcast reached it, a Test button that pushes for real, and an Edit dialog.
 */

/** A port nothing listens on yet, for the receiver. */
function freePort() {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** ffmpeg as an RTMP server on loopback (the app server allows 127.0.0.1), reading what it gets. */
function startReceiver(port: number): ChildProcess {
  return spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-listen', '1', '-i', `rtmp://127.0.0.1:${port}/live`, '-f', 'null', '-'],
    { stdio: 'ignore' },
  );
}

test.describe('RTMP destinations', () => {
  test.beforeEach(() => test.slow());

  test('a new address is not tried yet, a test push to a real receiver works, and it can be edited', async ({
    page,
    account,
    signIn,
  }, testInfo) => {
    const port = await freePort();
    const receiver = startReceiver(port);
    try {
      // The theme follows the system here, so the screenshots below are one light and one dark.
      await page.addInitScript(() => localStorage.setItem('theme', 'system'));
      await page.emulateMedia({ colorScheme: 'light' });
      await signIn(page, account, '/connect-stream');
      const rtmp = page.getByRole('region', { name: 'Custom RTMP' });
      const form = rtmp.getByRole('form', { name: 'Add an RTMP destination' });
      await form.getByLabel('Name').fill('Studio box');
      await form.getByLabel('Server address').fill(`rtmp://127.0.0.1:${port}/live`);
      await form.getByLabel('Stream key', { exact: true }).fill('stream');
      await form.getByRole('button', { name: 'Save destination' }).click();

      const saved = rtmp.getByRole('list', { name: 'Saved RTMP destinations' });
      await expect(saved.getByText('Saved, not tried yet', { exact: true })).toBeVisible();
      await expect(saved.getByText('Saved, not tried yet. Test it before going live.')).toBeVisible();
      await expect(saved.getByText('Connected')).toHaveCount(0);

      // Keyboard: Tab reaches the Test button and Enter presses it.
      const testButton = saved.getByRole('button', { name: 'Test Studio box' });
      await testButton.focus();
      await page.keyboard.press('Enter');
      await expect(saved.getByText('Test worked', { exact: true })).toBeVisible({ timeout: 30_000 });
      await expect(saved.getByText(/^Last test: worked on /)).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('rtmp-light.png'), fullPage: true });

      await saved.getByRole('button', { name: 'Edit Studio box' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Studio box' });
      await expect(dialog.getByLabel('Server address')).toHaveValue(`rtmp://127.0.0.1:${port}/live`);
      await expect(dialog.getByLabel('Stream key', { exact: true })).toHaveValue('');
      await dialog.getByLabel('Name').fill('');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect(dialog.getByText('Enter a name of up to 100 characters.')).toBeVisible();
      await dialog.getByLabel('Name').fill('Studio box 2');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect(dialog).toHaveCount(0);
      // A new name only: the key was kept, and so was what the test found.
      await expect(saved.getByText('Studio box 2')).toBeVisible();
      await expect(saved.getByText('Test worked', { exact: true })).toBeVisible();
      await expect(page.getByText('stream', { exact: true })).toHaveCount(0);

      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(page.locator('html')).toHaveClass(/dark/);
      await page.screenshot({ path: testInfo.outputPath('rtmp-dark.png'), fullPage: true });
    } finally {
      receiver.kill('SIGKILL');
    }
  });

  test('a closed port fails with a translated reason, also in Arabic', async ({ page, account, signIn }, testInfo) => {
    const port = await freePort();
    await signIn(page, account, '/connect-stream?lng=ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const form = page.getByRole('form', { name: 'إضافة وجهة RTMP' });
    await form.locator('input').nth(0).fill('صندوق الاستوديو');
    await form.locator('input').nth(1).fill(`rtmp://127.0.0.1:${port}/live`);
    await form.locator('input').nth(2).fill('key');
    await form.locator('button[type=submit]').click();
    await expect(page.getByText('محفوظ، لم يُجرَّب بعد', { exact: true })).toBeVisible();
    // Names inside sentences are bidi-isolated (U+2068 … U+2069) in right-to-left pages.
    await page.getByRole('button', { name: 'اختبار \u2068صندوق الاستوديو\u2069' }).click();
    await expect(page.getByText('فشل الاختبار', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/لا شيء يستمع على هذا العنوان/).first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('rtmp-arabic.png'), fullPage: true });
  });
});
