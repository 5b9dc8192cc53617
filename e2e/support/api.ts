import { APP_URL, HOOK_URL, MAIL_API_URL } from './ports';

export interface ApiBody<T = unknown> {
  status: 'success' | 'error';
  message: string;
  data?: T;
}

export interface SessionUser {
  id: number;
  username: string;
  email: string;
  avatar: string | null;
  role_id: number;
}

export interface Account {
  username: string;
  email: string;
  password: string;
  token: string;
  user: SessionUser;
}

/** A form post to /api/{name}, the way the web client and the acceptance tests call. */
export async function apiPost<T = unknown>(
  name: string,
  fields: Record<string, string | number> = {},
): Promise<{ httpStatus: number; body: ApiBody<T> }> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  const response = await fetch(`${APP_URL}/api/${name}`, { method: 'POST', body: form });
  return { httpStatus: response.status, body: (await response.json()) as ApiBody<T> };
}

interface MailSummary {
  index: number;
  to: string[];
  subject: string;
  text: string;
}

export async function mailsTo(email: string): Promise<MailSummary[]> {
  const response = await fetch(`${MAIL_API_URL}/messages?to=${encodeURIComponent(email)}`);
  return (await response.json()) as MailSummary[];
}

/** Waits for a mail to `email` carrying a 6-digit code, newer than the first `after` mails to it. */
export async function readCode(email: string, options: { after?: number; timeoutMs?: number } = {}): Promise<string> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const mails = (await mailsTo(email)).slice(options.after ?? 0);
    const withCode = [...mails].reverse().find((mail) => /\b\d{6}\b/.test(mail.subject));
    const code = withCode && /\b(\d{6})\b/.exec(withCode.subject)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${process.pid}.${Date.now().toString(36)}.${counter++}@example.com`;
}

/** Signs up and confirms through the API and the real mail; returns a signed-in account. */
export async function createAccount(options: Partial<Pick<Account, 'username' | 'email' | 'password'>> = {}) {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery';
  const username = options.username ?? 'Sam Example';
  const before = (await mailsTo(email)).length;
  const signup = await apiPost('signup.php', { username, email, password });
  if (signup.body.status !== 'success') throw new Error(`signup failed: ${signup.body.message}`);
  const code = await readCode(email, { after: before });
  const confirmed = await apiPost<{ token: string; data: SessionUser }>('confirm-signup.php', { email, code });
  if (!confirmed.body.data) throw new Error(`confirmation failed: ${confirmed.body.message}`);
  return { username, email, password, token: confirmed.body.data.token, user: confirmed.body.data.data } as Account;
}

/** Signs in an existing account through the API. */
export async function logIn(email: string, password: string): Promise<Account> {
  const login = await apiPost<{ token: string; data: SessionUser }>('login.php', { email, password });
  if (!login.body.data) throw new Error(`login failed: ${login.body.message}`);
  const user = login.body.data.data;
  return { username: user.username, email, password, token: login.body.data.token, user };
}

/** Test-only: makes the server's own notifier tell a user something (see app-server.ts). */
export async function notifyUser(userId: number, html: string): Promise<{ id: number; text: string }> {
  const response = await fetch(`${HOOK_URL}/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId, html }),
  });
  if (!response.ok) throw new Error(`notify failed: ${response.status}`);
  return (await response.json()) as { id: number; text: string };
}
