import { accountCalls, requestBodyOf, type CallDefinition, type InputOf, type OutputOf } from '@meetcast/contracts';
import { APP_URL, HOOK_URL, MAIL_API_URL } from './ports';

export interface ApiBody<T = unknown> {
  status: 'success' | 'error';
  message: string;
  data?: T;
}

/** The `data` of a call's answer, as its output schema describes it. */
export type DataOf<Call extends CallDefinition> = OutputOf<Call> extends { data?: infer Data } ? Data : undefined;

/**
 * A call's fields as a test sends them: the contract's names and types, any of them left out (a test
 * may probe what the server answers without one).
 */
export type TestInput<Call extends CallDefinition> = Partial<InputOf<Call>>;

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

/**
 * Posts a call of the table of calls (`apiPost(accountCalls.login, { email, password })`) the way the
 * web client does: to /api/{its name}, a form, or JSON when a field holds a list or an object. A
 * success answer is parsed by the call's output schema, so a test sees the contract's types and an
 * answer that breaks the contract fails here.
 */
export async function apiPost<Call extends CallDefinition>(
  call: Call,
  fields: TestInput<Call> = {},
): Promise<{ httpStatus: number; body: ApiBody<DataOf<Call>> }> {
  const { body, headers } = requestBodyOf(fields);
  const response = await fetch(`${APP_URL}/api/${call.name}`, { method: 'POST', body, headers });
  const answer = (await response.json()) as ApiBody<DataOf<Call>>;
  if (response.ok && answer.status === 'success') {
    const parsed = call.output.safeParse(answer);
    if (!parsed.success) throw new Error(`${call.name} answered outside its output schema: ${parsed.error.message}`);
    return { httpStatus: response.status, body: parsed.data as ApiBody<DataOf<Call>> };
  }
  return { httpStatus: response.status, body: answer };
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
  const signup = await apiPost(accountCalls.signup, { username, email, password });
  if (signup.body.status !== 'success') throw new Error(`signup failed: ${signup.body.message}`);
  const code = await readCode(email, { after: before });
  const confirmed = await apiPost(accountCalls.confirmSignup, { email, code });
  if (!confirmed.body.data) throw new Error(`confirmation failed: ${confirmed.body.message}`);
  return { username, email, password, token: confirmed.body.data.token, user: confirmed.body.data.data } as Account;
}

/** Signs in an existing account through the API. */
export async function logIn(email: string, password: string): Promise<Account> {
  const login = await apiPost(accountCalls.login, { email, password });
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
