import type { StreamConnection } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';
import {
  newDestinationDraft,
  planGoLive,
  toDestinationRequest,
  validateDestination,
  type DestinationDraft,
} from './destination-requests';

const connection = (
  id: number,
  platform: StreamConnection['platform'],
  status: StreamConnection['status'] = 'connected',
) =>
  ({
    id,
    platform,
    name: `${platform} ${id}`,
    status,
    created_at: 1_700_000_000,
    rtmp_url: null,
    last_test_at: null,
    last_test_result: null,
    last_test_reason: null,
    last_live_at: null,
  }) satisfies StreamConnection;

const youtube = connection(1, 'youtube');
const twitch = connection(2, 'twitch');
const rtmp = connection(3, 'rtmp');
const expiredYouTube = connection(4, 'youtube', 'expired');

const draft = (changes: Partial<DestinationDraft> = {}): DestinationDraft => ({
  ...newDestinationDraft('Weekly show'),
  ...changes,
});

describe('newDestinationDraft', () => {
  it('starts from the meeting title, cut to the platforms’ 100 characters', () => {
    expect(newDestinationDraft('  Weekly show ')).toEqual({
      title: 'Weekly show',
      description: '',
      privacy: 'public',
      category: null,
    });
    expect(newDestinationDraft('x'.repeat(150)).title).toHaveLength(100);
  });
});

describe('toDestinationRequest', () => {
  it('sends YouTube its title, description and privacy', () => {
    expect(
      toDestinationRequest(youtube, draft({ title: ' Live Q&A ', description: ' Ask us ', privacy: 'unlisted' })),
    ).toEqual({ connection_id: 1, title: 'Live Q&A', description: 'Ask us', privacy: 'unlisted' });
  });

  it('sends Twitch its title and the category id, never a description or privacy', () => {
    expect(
      toDestinationRequest(
        twitch,
        draft({ description: 'ignored', privacy: 'private', category: { id: '509658', name: 'Just Chatting' } }),
      ),
    ).toEqual({ connection_id: 2, title: 'Weekly show', category: '509658' });
    expect(toDestinationRequest(twitch, draft())).toEqual({ connection_id: 2, title: 'Weekly show' });
  });

  it('sends an RTMP address nothing but its id', () => {
    expect(toDestinationRequest(rtmp, draft({ description: 'x', category: { id: '1', name: 'y' } }))).toEqual({
      connection_id: 3,
    });
  });

  it('leaves an empty description out', () => {
    expect(toDestinationRequest(youtube, draft({ description: '   ' }))).not.toHaveProperty('description');
  });
});

describe('validateDestination', () => {
  it('asks YouTube and Twitch for a title of at most 100 characters', () => {
    expect(validateDestination('youtube', draft({ title: '  ' }))).toEqual({ title: 'title_required' });
    expect(validateDestination('twitch', draft({ title: 'x'.repeat(101) }))).toEqual({ title: 'title_too_long' });
    expect(validateDestination('twitch', draft({ title: 'x'.repeat(100) }))).toEqual({});
  });

  it('limits YouTube descriptions to 5000 characters', () => {
    expect(validateDestination('youtube', draft({ description: 'x'.repeat(5001) }))).toEqual({
      description: 'description_too_long',
    });
  });

  it('asks nothing of an RTMP address', () => {
    expect(validateDestination('rtmp', draft({ title: '' }))).toEqual({});
  });
});

describe('planGoLive', () => {
  const connections = [youtube, twitch, rtmp, expiredYouTube];

  it('has nothing to do without a destination or a recording', () => {
    expect(planGoLive({ chosen: [], drafts: {}, record: false }, connections)).toEqual({ kind: 'nothing' });
  });

  it('records alone when only the recording is chosen', () => {
    expect(planGoLive({ chosen: [], drafts: {}, record: true }, connections)).toEqual({
      kind: 'ready',
      destinations: [],
      record: 1,
    });
  });

  it('maps every chosen working connection, in the order of the list', () => {
    const plan = planGoLive(
      { chosen: [3, 1], drafts: { 1: draft({ privacy: 'private' }), 3: draft() }, record: false },
      connections,
    );
    expect(plan).toEqual({
      kind: 'ready',
      destinations: [{ connection_id: 1, title: 'Weekly show', privacy: 'private' }, { connection_id: 3 }],
      record: 0,
    });
  });

  it('skips connections that are no longer usable or no longer exist', () => {
    expect(planGoLive({ chosen: [4, 99], drafts: { 4: draft() }, record: false }, connections)).toEqual({
      kind: 'nothing',
    });
  });

  it('names the destinations whose fields are wrong instead of sending them', () => {
    expect(
      planGoLive({ chosen: [1, 2], drafts: { 1: draft({ title: '' }), 2: draft() }, record: true }, connections),
    ).toEqual({ kind: 'invalid', problems: { 1: { title: 'title_required' } } });
  });

  it('checks a chosen destination that has no draft rather than dropping it', () => {
    expect(planGoLive({ chosen: [2], drafts: {}, record: false }, connections)).toEqual({
      kind: 'invalid',
      problems: { 2: { title: 'title_required' } },
    });
  });
});
