import { expect, signInThroughPage, test } from './fixtures';

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

test('no page trips the Content-Security-Policy (no eval, no foreign connections)', async ({ page, account }) => {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window.cspViolations ??= []).push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  // Signing in parses forms and answers with the shared schemas; the pages after it open Socket.IO.
  await signInThroughPage(page, account.email, account.password);
  for (const path of ['/', '/calendar', '/contacts', '/profile']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => window.cspViolations ?? []), path).toEqual([]);
  }
});
