// Runs before the app: applies the stored theme and text direction so the first paint is right.
// Kept in sync with src/lib/preferences.ts (same keys and defaults).
(function () {
  var root = document.documentElement;
  function read(key, fallback) {
    try {
      var value = window.localStorage.getItem(key);
      return value === null ? fallback : value;
    } catch {
      return fallback;
    }
  }
  var theme = read('theme', 'dark');
  var prefersDark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  var isDark = theme === 'dark' || (theme === 'system' && prefersDark);
  root.classList.toggle('dark', isDark);
  root.style.colorScheme = isDark ? 'dark' : 'light';
  var language = (read('i18nextLng', 'en') || 'en').split('-')[0];
  var direction = read('rtlClass', language === 'ar' ? 'rtl' : 'ltr');
  root.setAttribute('dir', direction === 'rtl' ? 'rtl' : 'ltr');
  root.setAttribute('lang', language);
  // zod (the shared schemas) probes for eval when its first schemas are built, before any app code
  // could configure it; the CSP forbids eval, so the probe was reported as a violation on every page.
  // zod reads its configuration from this global, so it must exist before the first module runs.
  window.__zod_globalConfig = { jitless: true };
})();
