import { streamingCalls, type CallAnswering, type ViewerChatState } from '@meetcast/contracts';
import { api, type WebCallInput } from '../../lib/api';

const TOKEN_KEY = 'meetcastViewerChatToken';
const NAME_KEY = 'meetcastViewerChatName';

/** How this browser is known to a viewer chat: the session (cookie), a room grant, the guest identity. */
export interface ChatCredentials {
  meetId: string;
  /** Hosts in the meeting room moderate with their room grant (co-hosts may have no account). */
  grant?: string | undefined;
}

export const viewerChatKey = (meetId: string) => ['viewer-chat', meetId] as const;

export function storedViewerToken(): string | undefined {
  return localStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function storedGuestName(): string {
  return localStorage.getItem(NAME_KEY) ?? '';
}

export function rememberGuestName(name: string) {
  localStorage.setItem(NAME_KEY, name);
}

/** The server-sealed per-browser identity, asked for once and kept in localStorage. */
export async function ensureViewerToken(): Promise<string> {
  const body = await api.call(
    streamingCalls.getViewerChatIdentity,
    { viewer_token: storedViewerToken() },
    { withToken: false },
  );
  localStorage.setItem(TOKEN_KEY, body.data.viewer_token);
  return body.data.viewer_token;
}

const fieldsOf = <Extra extends object>(credentials: ChatCredentials, extra: Extra) => ({
  meetId: credentials.meetId,
  grant: credentials.grant,
  viewer_token: storedViewerToken(),
  ...extra,
});

export async function fetchViewerChat(
  credentials: ChatCredentials,
  signal?: AbortSignal,
): Promise<ViewerChatState | null> {
  return (await api.call(streamingCalls.getViewerChat, fieldsOf(credentials, {}), { signal })).data.data;
}

export async function postViewerChat(credentials: ChatCredentials, text: string, displayName: string | undefined) {
  if (displayName !== undefined && !storedViewerToken()) await ensureViewerToken();
  const body = await api.call(
    streamingCalls.postViewerChat,
    fieldsOf(credentials, { text, display_name: displayName }),
  );
  return body.data.data;
}

export type ModerationAction =
  | { kind: 'delete'; id: number }
  | { kind: 'pin'; id: number | undefined }
  | { kind: 'banner'; id: number | undefined }
  | { kind: 'ban' | 'timeout' | 'unban'; id: number }
  | { kind: 'slow-mode'; seconds: number };

/** One moderation call; the server's translated message comes back for the toast. */
export async function moderate(credentials: ChatCredentials, action: ModerationAction): Promise<string> {
  const call = <Call extends CallAnswering<{ message: string }>>(
    definition: Call,
    extra: Omit<WebCallInput<Call>, 'meetId'>,
  ) => api.call(definition, fieldsOf(credentials, extra) as WebCallInput<Call>).then((body) => body.message);
  switch (action.kind) {
    case 'delete':
      return call(streamingCalls.deleteViewerChatMessage, { id: action.id });
    case 'pin':
      return call(streamingCalls.pinViewerChatMessage, { id: action.id });
    case 'banner':
      return call(streamingCalls.showViewerChatBanner, { id: action.id });
    case 'slow-mode':
      return call(streamingCalls.setViewerChatSlowMode, { seconds: action.seconds });
    case 'timeout':
      return call(streamingCalls.moderateViewerChat, { id: action.id, action: 'timeout', minutes: 10 });
    default:
      return call(streamingCalls.moderateViewerChat, { id: action.id, action: action.kind });
  }
}
