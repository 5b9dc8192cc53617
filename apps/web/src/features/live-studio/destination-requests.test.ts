import { describe, expect, it } from 'vitest';
import {
  DestinationDraftSchema,
  draftOf,
  GoLivePlanSchema,
  newDestinationDraft,
  toDestinationRequest,
  type DestinationDraft,
} from './destination-requests';

const youtube = { id: 1, platform: 'youtube' } as const;
const twitch = { id: 2, platform: 'twitch' } as const;
const rtmp = { id: 3, platform: 'rtmp' } as const;

const draft = (
  connection: { id: number; platform: DestinationDraft['platform'] },
  changes: Partial<DestinationDraft> = {},
): DestinationDraft => ({ ...newDestinationDraft(connection, 'Weekly show'), ...changes });

/** The field paths of a refused draft and the message of each. */
const problemsOf = (value: DestinationDraft) => {
  const result = DestinationDraftSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.code]);
};

describe('newDestinationDraft', () => {
  it('starts from the meeting title, cut to the platforms’ 100 characters', () => {
    expect(newDestinationDraft(youtube, '  Weekly show ')).toEqual({
      connection_id: 1,
      platform: 'youtube',
      title: 'Weekly show',
      description: '',
      privacy: 'public',
      category: null,
    });
    expect(newDestinationDraft(youtube, 'x'.repeat(150)).title).toHaveLength(100);
  });
});

describe('draftOf', () => {
  it('starts a saved destination from what was saved, its category id standing for its name', () => {
    expect(draftOf({ connection_id: 2, platform: 'twitch', title: 'Show', category: '509658' })).toEqual({
      ...newDestinationDraft(twitch, ''),
      title: 'Show',
      category: { id: '509658', name: '509658' },
    });
  });
});

describe('toDestinationRequest', () => {
  it('sends YouTube its title, description and privacy', () => {
    expect(
      toDestinationRequest(draft(youtube, { title: ' Live Q&A ', description: ' Ask us ', privacy: 'unlisted' })),
    ).toEqual({ connection_id: 1, title: 'Live Q&A', description: 'Ask us', privacy: 'unlisted' });
  });

  it('sends Twitch its title and the category id, never a description or privacy', () => {
    expect(
      toDestinationRequest(
        draft(twitch, {
          description: 'ignored',
          privacy: 'private',
          category: { id: '509658', name: 'Just Chatting' },
        }),
      ),
    ).toEqual({ connection_id: 2, title: 'Weekly show', category: '509658' });
    expect(toDestinationRequest(draft(twitch))).toEqual({ connection_id: 2, title: 'Weekly show' });
  });

  it('sends an RTMP address nothing but its id', () => {
    expect(toDestinationRequest(draft(rtmp, { description: 'x', category: { id: '1', name: 'y' } }))).toEqual({
      connection_id: 3,
    });
  });

  it('leaves an empty description out', () => {
    expect(toDestinationRequest(draft(youtube, { description: '   ' }))).not.toHaveProperty('description');
  });
});

describe('DestinationDraftSchema', () => {
  it('asks YouTube and Twitch for a title of at most 100 characters', () => {
    expect(problemsOf(draft(youtube, { title: '  ' }))).toEqual([['title', 'custom']]);
    expect(DestinationDraftSchema.safeParse(draft(youtube, { title: '  ' })).error?.issues[0]?.message).toBe(
      'title_required',
    );
    expect(problemsOf(draft(twitch, { title: 'x'.repeat(101) }))).toEqual([['title', 'too_big']]);
    expect(problemsOf(draft(twitch, { title: 'x'.repeat(100) }))).toEqual([]);
  });

  it('limits YouTube descriptions to 5000 characters', () => {
    expect(problemsOf(draft(youtube, { description: 'x'.repeat(5001) }))).toEqual([['description', 'too_big']]);
  });

  it('asks nothing of an RTMP address', () => {
    expect(problemsOf(draft(rtmp, { title: '' }))).toEqual([]);
  });
});

describe('GoLivePlanSchema', () => {
  it('records alone when only the recording is chosen', () => {
    expect(GoLivePlanSchema.parse({ destinations: [], record: true })).toEqual({ destinations: [], record: true });
  });

  it('gives the contract’s destinations, in the order of the form', () => {
    const plan = GoLivePlanSchema.parse({
      destinations: [draft(youtube, { privacy: 'private' }), draft(rtmp)],
      record: false,
    });
    expect(plan.destinations).toEqual([
      { connection_id: 1, title: 'Weekly show', privacy: 'private' },
      { connection_id: 3 },
    ]);
  });

  it('names the destination whose fields are wrong instead of sending the plan', () => {
    const result = GoLivePlanSchema.safeParse({
      destinations: [draft(youtube), draft(twitch, { title: '' })],
      record: true,
    });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['destinations', 1, 'title']]);
  });
});
