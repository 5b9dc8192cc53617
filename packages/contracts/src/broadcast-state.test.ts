import { describe, expect, it } from 'vitest';
import { LATEST_BROADCAST_STATES, publicBroadcastState, type BroadcastFacts } from './broadcast-state.js';

const MEETING_STATES = ['scheduled', 'live', 'ended'] as const;

/** Every combination of the facts, so no case is left to chance. */
function everyFact(): BroadcastFacts[] {
  return LATEST_BROADCAST_STATES.flatMap((broadcast) =>
    MEETING_STATES.flatMap((meeting) =>
      [true, false].flatMap((hasRecording) =>
        [true, false].map((scheduleOver) => ({ broadcast, meeting, hasRecording, scheduleOver })),
      ),
    ),
  );
}

/** The rule written out a second way, as a person would read the page. */
function expected(facts: BroadcastFacts) {
  const running = facts.broadcast === 'starting' || facts.broadcast === 'live';
  const finished = facts.broadcast === 'ended' || facts.broadcast === 'failed';
  if (running) return 'live';
  if (finished) return facts.hasRecording ? 'replay' : 'ended';
  return facts.meeting === 'ended' || facts.scheduleOver ? 'ended' : 'upcoming';
}

describe('publicBroadcastState', () => {
  it.each(everyFact())('%o', (facts) => {
    expect(publicBroadcastState(facts)).toBe(expected(facts));
  });

  it('a running broadcast is live even when the meeting says otherwise (the channel said UPCOMING while live)', () => {
    for (const meeting of MEETING_STATES) {
      expect(publicBroadcastState({ broadcast: 'live', meeting, hasRecording: false, scheduleOver: true })).toBe(
        'live',
      );
    }
  });

  it('an ended broadcast stays a replay after the host leaves (the card flipped to "Starting now")', () => {
    const facts = { broadcast: 'ended', hasRecording: true, scheduleOver: false } as const;
    expect(publicBroadcastState({ ...facts, meeting: 'live' })).toBe('replay');
    expect(publicBroadcastState({ ...facts, meeting: 'scheduled' })).toBe('replay');
    expect(publicBroadcastState({ ...facts, meeting: 'ended' })).toBe('replay');
  });

  it('a meeting never broadcast is upcoming until its time passes', () => {
    const facts = { broadcast: 'none', hasRecording: false } as const;
    expect(publicBroadcastState({ ...facts, meeting: 'scheduled', scheduleOver: false })).toBe('upcoming');
    expect(publicBroadcastState({ ...facts, meeting: 'live', scheduleOver: false })).toBe('upcoming');
    expect(publicBroadcastState({ ...facts, meeting: 'scheduled', scheduleOver: true })).toBe('ended');
  });
});
