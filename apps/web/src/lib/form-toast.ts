import { toast } from 'react-toastify';

const AFTER_RELOAD_KEY = 'meetcast.successAfterReload';
const errorToastId = (form: string) => `form-error:${form}`;

/** A form's error toast: one per form, replaced by the form's next error rather than stacked. */
export function showFormError(form: string, message: string) {
  const toastId = errorToastId(form);
  if (toast.isActive(toastId)) toast.update(toastId, { render: message });
  else toast.error(message, { toastId });
}

/** The form went through: its earlier error toast no longer applies. */
export function dismissFormError(form: string) {
  toast.dismiss(errorToastId(form));
}

export function showFormSuccess(form: string, message: string) {
  dismissFormError(form);
  toast.success(message);
}

/** A success toast for the page that the coming reload brings (scheduling reloads, spec section 4). */
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
