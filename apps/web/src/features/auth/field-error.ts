import type { FieldError } from 'react-hook-form';
import type { TFunction } from 'i18next';

export type AuthField = 'username' | 'email' | 'password' | 'currentPassword' | 'code' | 'confirmPassword';

/** A clear, translated message per field instead of zod's English defaults. */
export function fieldError(t: TFunction, field: AuthField, error: FieldError | undefined): string | undefined {
  if (!error) return undefined;
  return t(`auth:field_errors.${field}`);
}
