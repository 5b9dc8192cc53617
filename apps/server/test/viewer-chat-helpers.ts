import {
  VIEWER_CHAT_EVENT,
  VIEWER_CHAT_PROTOCOL_VERSION,
  ViewerChatEventSchema,
  type ViewerChatEvent,
  type ViewerChatMessage,
  type ViewerChatState,
} from '@meetcast/contracts';
import { RecordingSocket } from './recording-socket.js';
import { insertMeeting, type MeetingOptions } from './room-helpers.js';
import type { Fields, SignedIn, TestServer } from './test-server.js';

export type ChatAnswer = { data: ViewerChatState | null };
export type PostAnswer = { data: ViewerChatMessage };

/** A live meeting of `host` with a running broadcast (started through the real call; recording only). */
export async function liveBroadcast(server: TestServer, host: SignedIn, options: Partial<MeetingOptions> = {}) {
  const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live', ...options });
  const started = await server.post('start-broadcast.php', { token: host.token, meetId: meeting.slug, record: 1 });
  if (started.httpStatus !== 200) throw new Error(`start-broadcast failed: ${started.body.message}`);
  return meeting;
}

export async function guestIdentity(server: TestServer): Promise<string> {
  const answer = await server.post<{ viewer_token: string }>('get-viewer-chat-identity.php');
  if (!answer.body.data) throw new Error(`identity failed: ${answer.body.message}`);
  return answer.body.data.viewer_token;
}

export async function chat(server: TestServer, meetId: string, fields: Fields = {}) {
  return server.post<ChatAnswer>('get-viewer-chat.php', { meetId, ...fields });
}

/** A listen-only connection to /viewer-chat that records every event it receives. */
export class ViewerChatClient extends RecordingSocket<ViewerChatEvent> {
  constructor(baseUrl: string, auth: Record<string, unknown>) {
    super(`${baseUrl}/viewer-chat`, { protocol: VIEWER_CHAT_PROTOCOL_VERSION, ...auth }, VIEWER_CHAT_EVENT, (payload) =>
      ViewerChatEventSchema.parse(payload),
    );
  }
}
