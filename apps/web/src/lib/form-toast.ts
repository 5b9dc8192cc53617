import { toast } from 'react-toastify';

const AFTER_RELOAD_KEY = 'meetcast.successAfterReload';
const shownErrors = new Map<string, string>();
let errorCount = 0;

/**
 * A form's error toast: one per form, replaced by the form's next error rather than stacked. Each error
 * gets a fresh toast: updating the old one could land in its closing animation and never be seen.
 */
export function showFormError(form: string, message: string) {
  dismissFormError(form);
  const toastId = `form-error:${form}:${++errorCount}`;
  shownErrors.set(form, toastId);
  toast.error(message, { toastId });
}

/** The form went through: its earlier error toast no longer applies. */
export function dismissFormError(form: string) {
  const toastId = shownErrors.get(form);
  if (toastId) toast.dismiss(toastId);
  shownErrors.delete(form);
}

export function showFormSuccess(form: string, message: string) {
  dismissFormError(form);
  toast.success(message);
}

/** A success toast for the page that the coming reload brings (scheduling a meeting reloads the page). */
export function showSuccessAfterReload(message: string) {
  sessionStorage.setItem(AFTER_RELOAD_KEY, message);
}

/** Shows the success a previous page asked for, once. */
export function showPendingSuccess() {
  const message = sessionStorage.getItem(AFTER_RELOAD_KEY);
  if (message === null) return;
  sessionStorage.removeItem(AFTER_RELOAD_KEY);
  toast.success(message);
}
