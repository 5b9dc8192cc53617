import {
  BROADCAST_EVENT,
  BROADCAST_EVENTS_NAMESPACE,
  BROADCAST_EVENTS_PROTOCOL_VERSION,
  BroadcastEventsAuthSchema,
  PLATFORM_CHAT_EVENT,
  type BroadcastEvent,
  type PlatformChatEvent,
  type BroadcastViewer,
} from '@meetcast/contracts';
import { eq, meetings } from '@meetcast/db';
import type { Namespace, Server, Socket } from 'socket.io';
import type { AppContext } from '../context.js';
import { AppError } from '../http/app-error.js';
import { isAdmittedTo } from '../rooms/grants.js';
import { managesMeeting } from '../rooms/room-service.js';
import { latestBroadcast, requireMeeting } from './broadcast-service.js';
import { overlayView } from './broadcast-view.js';
import { recordingReader } from './recording-access.js';
import { isOpenToViewers } from './viewers/viewer-audience.js';

/** Changes closer together than this go out as one push (a stop moves the state and every destination). */
export const BROADCAST_PUSH_GROUP_MS = 25;

const broadcastRoom = (meetingId: number) => `broadcast:${meetingId}`;
/** The meeting's host and co-hosts: only they hear its platform chat (ADR 040). */
const managersRoom = (meetingId: number) => `broadcast-managers:${meetingId}`;
/**
 * Those who see the room (ADR 045, 047): its managers and grants admitted to it, the composer's
 * layout page among them. Their pushes carry the overlay and the stage (ADR 039).
 */
const roomSeersRoom = (meetingId: number) => `broadcast-room:${meetingId}`;

class Refusal extends Error {}

/**
 * The `/broadcast-events` namespace (ADR 022): listen-only. A socket joins the room of one meeting's
 * broadcast when it may read that broadcast (the rule of `get-broadcast.php`); every `broadcast.changed`
 * of this process is pushed there, and the Redis adapter carries the push to every process's sockets.
 */
export function attachBroadcastSockets(
  io: Server,
  context: AppContext,
  viewerState: (meetId: string, changed: { meetingId: number; broadcastId: number }) => Promise<BroadcastViewer>,
) {
  const namespace: Namespace = io.of(BROADCAST_EVENTS_NAMESPACE);
  namespace.use((socket, next) => {
    admit(context, socket).then(
      (admitted) => {
        socket.data = admitted;
        next();
      },
      (error: unknown) => {
        if (error instanceof Refusal) next(new Error(error.message));
        else if (error instanceof AppError && error.statusCode === 404) next(new Error('not_found'));
        else {
          context.log.error({ err: error }, 'broadcast events: handshake failed');
          next(new Error('forbidden'));
        }
      },
    );
  });
  /** One of a meeting's rooms hears an event of this namespace: each names the meeting and its broadcast. */
  const tell = (
    room: string,
    ...[name, event]: [typeof BROADCAST_EVENT, BroadcastEvent] | [typeof PLATFORM_CHAT_EVENT, PlatformChatEvent]
  ) => namespace.to(room).emit(name, event);
  namespace.on('connection', (socket) => {
    const { meetingId, isManager, seesRoom } = socket.data as Admitted;
    const rooms = [broadcastRoom(meetingId)];
    if (isManager) rooms.push(managersRoom(meetingId));
    if (seesRoom) rooms.push(roomSeersRoom(meetingId));
    void socket.join(rooms);
  });
  // Emitted only in the process that reads the chat; the Redis adapter carries it to every process's sockets.
  context.events.on('platform-chat.message', ({ meetingId, broadcastId, message }) => {
    const about = { meeting_id: meetingId, broadcast_id: broadcastId };
    tell(managersRoom(meetingId), PLATFORM_CHAT_EVENT, { type: 'message.created', ...about, message });
  });

  const pending = new Map<number, { broadcastId: number; timer: NodeJS.Timeout }>();
  const push = async (meetingId: number, broadcastId: number) => {
    const [meeting] = await context.db.select().from(meetings).where(eq(meetings.id, meetingId));
    if (!meeting) return;
    const viewer = isOpenToViewers(meeting) ? await viewerState(meeting.slug, { meetingId, broadcastId }) : null;
    const about = { meeting_id: meetingId, broadcast_id: broadcastId };
    const event: BroadcastEvent = { type: 'broadcast.changed', ...about, viewer };
    // What get-broadcast.php answers the room (a rehearsal included): the layout page draws it at
    // once instead of asking again, a round trip of the 500-ms budget from set call to picture.
    const latest = await latestBroadcast(context, meetingId);
    const stage = latest ? { overlay: await overlayView(context, latest, meeting), on_stage: latest.onStage } : {};
    namespace.to(broadcastRoom(meetingId)).except(roomSeersRoom(meetingId)).emit(BROADCAST_EVENT, event);
    namespace.to(roomSeersRoom(meetingId)).emit(BROADCAST_EVENT, { ...event, ...stage } satisfies BroadcastEvent);
  };
  context.events.on('broadcast.changed', ({ meetingId, broadcastId }) => {
    const waiting = pending.get(meetingId);
    if (waiting) {
      waiting.broadcastId = broadcastId;
      return;
    }
    const timer = setTimeout(() => {
      const latest = pending.get(meetingId);
      pending.delete(meetingId);
      void push(meetingId, latest?.broadcastId ?? broadcastId).catch((error: unknown) =>
        context.log.warn({ err: error, meetingId }, 'broadcast events: push failed'),
      );
    }, BROADCAST_PUSH_GROUP_MS);
    timer.unref();
    pending.set(meetingId, { broadcastId, timer });
  });
}

interface Admitted {
  meetingId: number;
  isManager: boolean;
  /** A manager or a grant admitted to the room: sees what get-broadcast.php shows the room. */
  seesRoom: boolean;
}

async function admit(context: AppContext, socket: Socket): Promise<Admitted> {
  const auth = BroadcastEventsAuthSchema.safeParse(socket.handshake.auth);
  if (!auth.success) throw new Refusal('invalid_message');
  if (auth.data.protocol !== BROADCAST_EVENTS_PROTOCOL_VERSION) throw new Refusal('protocol_mismatch');
  const meeting = await requireMeeting(context, auth.data.meetId);
  const session = auth.data.token ? await context.sessions.verify(auth.data.token).catch(() => undefined) : undefined;
  const isManager = session?.user ? await managesMeeting(context, meeting, session.user) : false;
  const reader = await recordingReader(context, meeting, session?.user);
  const isAdmitted = !isManager && (await isAdmittedTo(context.db, auth.data.grant, meeting.id));
  if (isManager || isAdmitted || reader.kind !== 'nobody') {
    return { meetingId: meeting.id, isManager, seesRoom: isManager || isAdmitted };
  }
  throw new Refusal('forbidden');
}
