import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextField } from '../../components/text-field';
import { LINK_CLASSES } from './auth-card';

/** A TextField whose label the field itself knows; `ref` passes through as a prop (React 19). */
type AuthFieldProps = Omit<ComponentProps<typeof TextField>, 'label'> & { label?: string };

export function EmailField(props: AuthFieldProps) {
  const { t } = useTranslation('auth');
  return <TextField label={t('fields.email')} type="email" autoComplete="email" {...props} />;
}

/** The six-digit code from the mail, in monospace so the digits are easy to compare. */
export function CodeField(props: AuthFieldProps) {
  const { t } = useTranslation('auth');
  return (
    <TextField
      label={t('fields.code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      className="[&_input]:font-mono [&_input]:tracking-[0.4em]"
      {...props}
    />
  );
}

/** A password being chosen: the browser may suggest one, and the rules are shown under it. */
export function NewPasswordField(props: AuthFieldProps) {
  const { t } = useTranslation('auth');
  return (
    <TextField
      label={t('fields.new_password')}
      type="password"
      autoComplete="new-password"
      hint={t('signup.password_hint')}
      {...props}
    />
  );
}

export function BackToLoginLink() {
  const { t } = useTranslation('auth');
  return (
    <Link to="/login" className={LINK_CLASSES}>
      {t('common_links.back_to_login')}
    </Link>
  );
}
