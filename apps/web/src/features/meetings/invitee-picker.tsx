import { XIcon } from 'lucide-react';
import { peopleCalls, EmailSchema, type Contact } from '@meetcast/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { api } from '../../lib/api';

export interface InviteeSelection {
  /** Contacts picked from the address book (sent as invitee_contacts). */
  contacts: Pick<Contact, 'id' | 'name' | 'email'>[];
  /** Addresses typed in (sent as invitees). */
  emails: string[];
}

const CHIP =
  'inline-flex items-center gap-1 rounded-full bg-primary-50 py-1 ps-3 pe-1 text-xs font-medium text-primary-800 dark:bg-primary-950 dark:text-primary-200';

/** Invitees picked from the user's contacts, plus any e-mail address typed in. */
export function InviteePicker({
  value,
  onChange,
}: {
  value: InviteeSelection;
  onChange(value: InviteeSelection): void;
}) {
  const { t } = useTranslation('meetings');
  const searchId = useId();
  const emailId = useId();
  const [search, setSearch] = useState('');
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const contacts = useQuery({
    queryKey: ['contacts', 'invitee-picker', search],
    queryFn: () => api.call(peopleCalls.getContacts, { search, per_page: 8, sort: 'name' }),
  });
  const chosen = new Set(value.contacts.map((contact) => contact.id));

  function addEmail() {
    const parsed = EmailSchema.safeParse(email);
    if (!parsed.success) {
      setEmailError(t('form.invalid_email', { email }));
      return;
    }
    setEmailError(undefined);
    setEmail('');
    if (!value.emails.includes(parsed.data)) onChange({ ...value, emails: [...value.emails, parsed.data] });
  }

  function onEmailKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      if (email.trim()) addEmail();
    }
  }

  const rows = contacts.data?.data.data ?? [];
  return (
    <fieldset className="space-y-3 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <legend className="px-1 text-sm font-medium text-slate-800 dark:text-slate-200">{t('form.invitees')}</legend>
      {(value.contacts.length > 0 || value.emails.length > 0) && (
        <ul className="flex flex-wrap gap-2" aria-label={t('form.invitees_chosen')}>
          {value.contacts.map((contact) => (
            <li key={`c${contact.id}`} className={CHIP}>
              {contact.name}
              <button
                type="button"
                aria-label={t('form.remove_invitee', { name: contact.name })}
                className="rounded-full p-0.5 hover:bg-primary-100 dark:hover:bg-primary-900"
                onClick={() => onChange({ ...value, contacts: value.contacts.filter((c) => c.id !== contact.id) })}
              >
                <XIcon className="size-3.5" />
              </button>
            </li>
          ))}
          {value.emails.map((address) => (
            <li key={address} className={CHIP}>
              {address}
              <button
                type="button"
                aria-label={t('form.remove_invitee', { name: address })}
                className="rounded-full p-0.5 hover:bg-primary-100 dark:hover:bg-primary-900"
                onClick={() => onChange({ ...value, emails: value.emails.filter((e) => e !== address) })}
              >
                <XIcon className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <label htmlFor={searchId} className="block text-xs font-medium text-slate-700 dark:text-slate-300">
            {t('form.search_contacts')}
          </label>
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          />
          <ul className="max-h-40 overflow-y-auto text-sm" aria-live="polite">
            {rows.length === 0 && !contacts.isLoading && (
              <li className="py-1 text-slate-500 dark:text-slate-400">{t('form.no_contacts')}</li>
            )}
            {rows.map((contact) => (
              <li key={contact.id}>
                <button
                  type="button"
                  disabled={!contact.email || chosen.has(contact.id)}
                  onClick={() =>
                    onChange({
                      ...value,
                      contacts: [...value.contacts, { id: contact.id, name: contact.name, email: contact.email }],
                    })
                  }
                  className="flex w-full items-center justify-between gap-2 rounded-md px-2 py-1.5 text-start hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50 dark:hover:bg-slate-800"
                >
                  <span dir="auto" className="truncate text-slate-900 dark:text-slate-100">
                    {contact.name}
                  </span>
                  <span dir="auto" className="truncate text-xs text-slate-500 dark:text-slate-400">
                    {contact.email ?? t('form.no_email')}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
        <div className="space-y-1.5">
          <label htmlFor={emailId} className="block text-xs font-medium text-slate-700 dark:text-slate-300">
            {t('form.invite_email')}
          </label>
          <div className="flex gap-2">
            <input
              id={emailId}
              type="email"
              value={email}
              placeholder="name@example.com"
              onChange={(event) => setEmail(event.target.value)}
              onKeyDown={onEmailKey}
              aria-invalid={emailError ? true : undefined}
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
            />
            <Button variant="secondary" size="sm" className="h-auto" onClick={addEmail} disabled={!email.trim()}>
              {t('form.add_email')}
            </Button>
          </div>
          {emailError && (
            <p role="alert" className="text-xs font-medium text-red-700 dark:text-red-300">
              {emailError}
            </p>
          )}
        </div>
      </div>
    </fieldset>
  );
}
