import { REPEAT } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';
import { isOccurrenceStart, occurrencesBetween } from './occurrences.js';

const at = (iso: string) => new Date(iso);
const starts = (list: { start: Date }[]) => list.map((occurrence) => occurrence.start.toISOString());

describe('occurrencesBetween', () => {
  it('keeps a weekly meeting at 09:00 Berlin time across the spring daylight-saving change', () => {
    const meeting = {
      startTime: at('2027-03-19T08:00:00Z'), // Friday 09:00 CET
      endTime: at('2027-03-19T09:00:00Z'),
      repeat: REPEAT.weekly,
      timeZone: 'Europe/Berlin',
    };
    const found = occurrencesBetween(meeting, at('2027-03-01T00:00:00Z'), at('2027-04-10T00:00:00Z'));
    expect(starts(found)).toEqual([
      '2027-03-19T08:00:00.000Z',
      '2027-03-26T08:00:00.000Z',
      '2027-04-02T07:00:00.000Z', // 09:00 CEST after 28 March
      '2027-04-09T07:00:00.000Z',
    ]);
    expect(found[2]?.end.toISOString()).toBe('2027-04-02T08:00:00.000Z');
  });

  it('expands daily, bi-weekly and monthly meetings and skips months without the day', () => {
    const base = { endTime: at('2027-01-31T10:30:00Z'), timeZone: 'UTC' };
    const daily = occurrencesBetween(
      { ...base, startTime: at('2027-01-31T10:00:00Z'), repeat: REPEAT.daily },
      at('2027-02-01T00:00:00Z'),
      at('2027-02-04T00:00:00Z'),
    );
    expect(daily).toHaveLength(3);
    const biweekly = occurrencesBetween(
      { ...base, startTime: at('2027-01-31T10:00:00Z'), repeat: REPEAT.biweekly },
      at('2027-01-01T00:00:00Z'),
      at('2027-03-01T00:00:00Z'),
    );
    expect(starts(biweekly)).toEqual([
      '2027-01-31T10:00:00.000Z',
      '2027-02-14T10:00:00.000Z',
      '2027-02-28T10:00:00.000Z',
    ]);
    const monthly = occurrencesBetween(
      { ...base, startTime: at('2027-01-31T10:00:00Z'), repeat: REPEAT.monthly },
      at('2027-01-01T00:00:00Z'),
      at('2027-06-01T00:00:00Z'),
    );
    expect(starts(monthly)).toEqual([
      '2027-01-31T10:00:00.000Z',
      '2027-03-31T10:00:00.000Z',
      '2027-05-31T10:00:00.000Z',
    ]);
  });

  it('includes a running occurrence, leaves out cancelled ones and honours the limit', () => {
    const meeting = {
      startTime: at('2027-01-04T09:00:00Z'),
      endTime: at('2027-01-04T10:00:00Z'),
      repeat: REPEAT.daily,
      timeZone: 'UTC',
    };
    const running = occurrencesBetween(meeting, at('2027-01-05T09:30:00Z'), at('2027-01-07T00:00:00Z'));
    expect(starts(running)).toEqual(['2027-01-05T09:00:00.000Z', '2027-01-06T09:00:00.000Z']);
    const cancelled = new Set([at('2027-01-06T09:00:00Z').getTime()]);
    const without = occurrencesBetween(meeting, at('2027-01-05T00:00:00Z'), at('2027-01-08T00:00:00Z'), { cancelled });
    expect(starts(without)).toEqual(['2027-01-05T09:00:00.000Z', '2027-01-07T09:00:00.000Z']);
    expect(
      occurrencesBetween(meeting, at('2027-01-01T00:00:00Z'), at('2028-01-01T00:00:00Z'), { limit: 5 }),
    ).toHaveLength(5);
    expect(occurrencesBetween(meeting, at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'))).toEqual([]);
  });

  it('answers a one-off meeting only when it overlaps the range', () => {
    const meeting = {
      startTime: at('2027-01-04T09:00:00Z'),
      endTime: at('2027-01-04T10:00:00Z'),
      repeat: 0,
      timeZone: 'UTC',
    };
    expect(occurrencesBetween(meeting, at('2027-01-04T09:59:00Z'), at('2027-01-05T00:00:00Z'))).toHaveLength(1);
    expect(occurrencesBetween(meeting, at('2027-01-04T10:00:00Z'), at('2027-01-05T00:00:00Z'))).toHaveLength(0);
    expect(isOccurrenceStart(meeting, at('2027-01-04T09:00:00Z'))).toBe(true);
    expect(isOccurrenceStart({ ...meeting, repeat: REPEAT.weekly }, at('2027-01-11T09:00:00Z'))).toBe(true);
    expect(isOccurrenceStart({ ...meeting, repeat: REPEAT.weekly }, at('2027-01-12T09:00:00Z'))).toBe(false);
  });
});
