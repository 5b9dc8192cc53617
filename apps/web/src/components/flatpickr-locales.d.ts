// flatpickr ships its ES-module translations without type declarations.
declare module 'flatpickr/dist/esm/l10n/*.js' {
  import type { CustomLocale } from 'flatpickr/dist/types/locale';
  const l10ns: Record<string, CustomLocale | undefined>;
  export default l10ns;
}
