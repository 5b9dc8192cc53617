import {
  VIEWER_CHAT_EVENT,
  VIEWER_CHAT_NAMESPACE,
  VIEWER_CHAT_PROTOCOL_VERSION,
  ViewerChatAuthSchema,
} from '@meetcast/contracts';
import type { ViewerChatEvent } from '@meetcast/contracts';
import type { Namespace, Server, Socket } from 'socket.io';
import type { AppContext } from '../context.js';
import { AppError } from '../http/app-error.js';
import { chatScope, viewerChatRoom, viewerRoom } from './viewer-chat-access.js';
import { chatViewer } from './viewer-identity.js';

/** A handshake that does not follow the protocol: refused with the reason the client is told. */
class HandshakeRefusal extends Error {
  constructor(readonly reason: 'invalid_message' | 'protocol_mismatch') {
    super(reason);
  }
}

/**
 * The `/viewer-chat` namespace: listen-only. Everyone allowed to read a meeting's viewer chat joins
 * its room; a viewer also joins their own room (account or browser identity) to hear about a ban.
 * Messages are posted over HTTP; the handlers emit here, and the Redis adapter carries each emit to
 * the sockets held by every server process.
 */
export class ViewerChatSockets {
  private namespace: Namespace | undefined;

  constructor(private readonly context: AppContext) {}

  attach(io: Server) {
    const namespace = io.of(VIEWER_CHAT_NAMESPACE);
    this.namespace = namespace;
    namespace.use((socket, next) => {
      this.admit(socket).then(
        () => next(),
        (error: unknown) => {
          if (error instanceof HandshakeRefusal) {
            // The client's mistake, not the server's: a line to notice, without a stack to alarm anyone.
            this.context.log.warn({ reason: error.reason }, 'viewer chat: malformed handshake refused');
            next(new Error(error.reason));
            return;
          }
          if (!(error instanceof AppError)) this.context.log.error({ err: error }, 'viewer chat: handshake failed');
          next(new Error(error instanceof AppError && error.statusCode === 404 ? 'not_found' : 'unauthorized'));
        },
      );
    });
    namespace.on('connection', (socket) => {
      const rooms = (socket.data as { rooms?: string[] }).rooms ?? [];
      void socket.join(rooms);
    });
  }

  private async admit(socket: Socket) {
    const auth = ViewerChatAuthSchema.safeParse(socket.handshake.auth);
    if (!auth.success) throw new HandshakeRefusal('invalid_message');
    if (auth.data.protocol !== VIEWER_CHAT_PROTOCOL_VERSION) throw new HandshakeRefusal('protocol_mismatch');
    const { token, grant, viewer_token: viewerToken, meetId } = auth.data;
    const session = token ? await this.context.sessions.verify(token).catch(() => undefined) : undefined;
    const scope = await chatScope(this.context, meetId, (meeting) =>
      chatViewer(this.context, meeting, { user: session?.user, grant, viewerToken }),
    );
    const rooms = [viewerChatRoom(scope.meeting.id)];
    if (scope.viewer.user) rooms.push(viewerRoom(scope.meeting.id, { userId: scope.viewer.user.id, guestId: null }));
    else if (scope.viewer.guestId)
      rooms.push(viewerRoom(scope.meeting.id, { userId: null, guestId: scope.viewer.guestId }));
    socket.data = { rooms };
  }

  toMeeting(meetingId: number, event: ViewerChatEvent) {
    this.namespace?.to(viewerChatRoom(meetingId)).emit(VIEWER_CHAT_EVENT, event);
  }

  toViewer(meetingId: number, author: { userId: number | null; guestId: string | null }, event: ViewerChatEvent) {
    this.namespace?.to(viewerRoom(meetingId, author)).emit(VIEWER_CHAT_EVENT, event);
  }
}
