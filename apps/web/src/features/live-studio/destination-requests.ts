import {
  STREAMING_LIMITS,
  type YOUTUBE_PRIVACY,
  type DestinationRequest,
  type StreamConnection,
  type StreamPlatform,
} from '@meetcast/contracts';

export type YouTubePrivacy = (typeof YOUTUBE_PRIVACY)[number];
export interface TwitchCategory {
  id: string;
  name: string;
}

/** What the host typed for one destination before going live. */
export interface DestinationDraft {
  title: string;
  description: string;
  privacy: YouTubePrivacy;
  /** Twitch's category (a Helix game id and its name, for the field to show). */
  category: TwitchCategory | null;
}

export type DestinationProblem = 'title_required' | 'title_too_long' | 'description_too_long';
export type DestinationProblems = Partial<Record<'title' | 'description', DestinationProblem>>;

/**
 * Which fields a platform takes: YouTube makes a live event with a title, a description and a
 * privacy; Twitch sets the channel's title and category; an RTMP address takes the stream as it is.
 */
export function fieldsOf(platform: StreamPlatform) {
  return {
    title: platform === 'youtube' || platform === 'twitch',
    description: platform === 'youtube',
    privacy: platform === 'youtube',
    category: platform === 'twitch',
  };
}

/** A fresh draft: the title starts as the meeting's (cut to what the platforms accept). */
export function newDestinationDraft(meetingTitle: string): DestinationDraft {
  return {
    title: meetingTitle.trim().slice(0, STREAMING_LIMITS.title),
    description: '',
    privacy: 'public',
    category: null,
  };
}

export function validateDestination(platform: StreamPlatform, draft: DestinationDraft): DestinationProblems {
  const fields = fieldsOf(platform);
  const problems: DestinationProblems = {};
  const title = draft.title.trim();
  if (fields.title && title === '') problems.title = 'title_required';
  else if (fields.title && title.length > STREAMING_LIMITS.title) problems.title = 'title_too_long';
  if (fields.description && draft.description.trim().length > STREAMING_LIMITS.description) {
    problems.description = 'description_too_long';
  }
  return problems;
}

export function hasProblems(problems: DestinationProblems) {
  return Object.keys(problems).length > 0;
}

/** One destination of start-broadcast / change-broadcast-destination: only the fields its platform takes. */
export function toDestinationRequest(connection: StreamConnection, draft: DestinationDraft): DestinationRequest {
  const fields = fieldsOf(connection.platform);
  const request: DestinationRequest = { connection_id: connection.id };
  const title = draft.title.trim();
  const description = draft.description.trim();
  if (fields.title && title) request.title = title;
  if (fields.description && description) request.description = description;
  if (fields.privacy) request.privacy = draft.privacy;
  if (fields.category && draft.category) request.category = draft.category.id;
  return request;
}

/** The host's choice in the Go live form: the chosen connections (in the order shown) and their drafts. */
export interface GoLiveSelection {
  chosen: number[];
  drafts: Record<number, DestinationDraft>;
  record: boolean;
}

export type GoLivePlan =
  | { kind: 'nothing' }
  | { kind: 'invalid'; problems: Record<number, DestinationProblems> }
  | { kind: 'ready'; destinations: DestinationRequest[]; record: 0 | 1 };

/**
 * The start-broadcast request of a selection: every chosen connection that still works, with its
 * fields, and the recording flag. Recording alone (no destination) is a broadcast too.
 */
export function planGoLive(selection: GoLiveSelection, connections: StreamConnection[]): GoLivePlan {
  const usable = connections.filter(
    (connection) => connection.status === 'connected' && selection.chosen.includes(connection.id),
  );
  if (usable.length === 0 && !selection.record) return { kind: 'nothing' };
  const problems: Record<number, DestinationProblems> = {};
  const destinations: DestinationRequest[] = [];
  for (const connection of usable) {
    // A choice without a draft is checked as an empty one, so it can never be dropped silently.
    const draft = selection.drafts[connection.id] ?? newDestinationDraft('');
    const found = validateDestination(connection.platform, draft);
    if (hasProblems(found)) problems[connection.id] = found;
    else destinations.push(toDestinationRequest(connection, draft));
  }
  if (Object.keys(problems).length > 0) return { kind: 'invalid', problems };
  return { kind: 'ready', destinations, record: selection.record ? 1 : 0 };
}
