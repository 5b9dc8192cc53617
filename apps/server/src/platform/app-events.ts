import type { PlatformChatMessage } from '@meetcast/contracts';
import type { FastifyBaseLogger } from 'fastify';

/**
 * What features tell each other inside one process, by name and typed payload. A feature that must
 * react to another's change (a meeting ended, a broadcast's state moved) listens here instead of
 * importing it, so the arrow between the two features points one way only.
 */
export interface AppEventMap {
  /** A broadcast's state, one of its destinations, its overlay or its audience changed. */
  'broadcast.changed': { meetingId: number; broadcastId: number };
  /** A platform chat message of a broadcast this process reads (ADR 040), for its managers' studios. */
  'platform-chat.message': { meetingId: number; broadcastId: number; message: PlatformChatMessage };
  /** Someone in a meeting's room started or stopped sharing a screen (a replay chapter, ADR 048). */
  'room.screen-share': { meetingId: number; participantId: string; isSharing: boolean };
  // Ending meetings (rooms/end-meetings.ts): one block, to ease merges.
  /** These meetings' live sessions are over (their rows may be deleted already); the rooms go next. */
  'meeting.ended': { meetingIds: number[]; reason: MeetingEndReason };
}

/** What ended a meeting: its host, an empty room, an administrator, a cancellation, a deletion. */
export type MeetingEndReason = 'host' | 'empty' | 'admin' | 'cancelled' | 'deleted';

type Listener<Payload> = (payload: Payload) => Promise<void> | void;

/** Listeners run one after another and are awaited; one that fails is logged and does not stop the others. */
export class AppEvents {
  private readonly listeners = new Map<keyof AppEventMap, Listener<never>[]>();

  constructor(private readonly log: FastifyBaseLogger) {}

  on<Name extends keyof AppEventMap>(name: Name, listener: Listener<AppEventMap[Name]>) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener as Listener<never>]);
  }

  async emit<Name extends keyof AppEventMap>(name: Name, payload: AppEventMap[Name]) {
    for (const listener of (this.listeners.get(name) ?? []) as Listener<AppEventMap[Name]>[]) {
      try {
        await listener(payload);
      } catch (error) {
        this.log.error({ err: error, event: name, payload: payload as object }, 'an event listener failed');
      }
    }
  }
}
