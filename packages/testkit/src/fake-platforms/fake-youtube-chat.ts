import { randomId, type FakeReply } from './fake-oauth.js';
import { youtubeError } from './fake-youtube-live.js';

/** A 1×1 PNG: the stand-ins' profile pictures. */
export const FAKE_AVATAR_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export interface FakeChatAuthor {
  name: string;
  channelId?: string;
  /** Defaults to the stand-in's own picture address. */
  profileImageUrl?: string;
}

/**
 * YouTube live chat (`liveChatMessages.list`): each broadcast's `snippet.liveChatId` names a chat;
 * a page answers the messages after its `pageToken`, a `nextPageToken` and `pollingIntervalMillis`.
 * Messages are added by the test (`say`) and become visible to a poll at once.
 */
export class FakeYouTubeChat {
  pollingIntervalMillis = 1000;
  /** When each liveChatMessages.list call came (ms), per chat: tests check the interval was kept. */
  readonly listedAt = new Map<string, number[]>();
  /** When each message was first answered to a poll (ms): when a reader could have it. */
  readonly servedAt = new Map<string, number>();
  private readonly chats = new Map<string, { id: string; author: FakeChatAuthor; text: string; at: string }[]>();

  constructor(private readonly avatarBase: () => string) {}

  static chatIdOf(broadcastId: string) {
    return `Cg0KC${broadcastId}`;
  }

  say(liveChatId: string, author: FakeChatAuthor, text: string) {
    const list = this.chats.get(liveChatId) ?? [];
    const message = { id: `LCC.${randomId(12)}`, author, text, at: new Date().toISOString() };
    list.push(message);
    this.chats.set(liveChatId, list);
    return message.id;
  }

  list(query: URLSearchParams, isLive: (liveChatId: string) => boolean): FakeReply {
    const liveChatId = query.get('liveChatId') ?? '';
    if (!isLive(liveChatId))
      return youtubeError(404, 'liveChatNotFound', 'The live chat was not found.', 'youtube.liveChat');
    this.listedAt.set(liveChatId, [...(this.listedAt.get(liveChatId) ?? []), Date.now()]);
    const list = this.chats.get(liveChatId) ?? [];
    const from = Number(query.get('pageToken') ?? '0') || 0;
    for (const message of list.slice(from))
      if (!this.servedAt.has(message.id)) this.servedAt.set(message.id, Date.now());
    return {
      status: 200,
      json: {
        kind: 'youtube#liveChatMessageListResponse',
        pollingIntervalMillis: this.pollingIntervalMillis,
        nextPageToken: String(list.length),
        pageInfo: { totalResults: list.length - from, resultsPerPage: list.length - from },
        items: list.slice(from).map((message) => ({
          kind: 'youtube#liveChatMessage',
          id: message.id,
          snippet: {
            type: 'textMessageEvent',
            liveChatId,
            authorChannelId: message.author.channelId ?? 'UCviewer',
            publishedAt: message.at,
            hasDisplayContent: true,
            displayMessage: message.text,
            textMessageDetails: { messageText: message.text },
          },
          authorDetails: {
            channelId: message.author.channelId ?? 'UCviewer',
            displayName: message.author.name,
            profileImageUrl: message.author.profileImageUrl ?? `${this.avatarBase()}/avatar/${message.id}.png`,
            isChatOwner: false,
            isChatModerator: false,
          },
        })),
      },
    };
  }
}
