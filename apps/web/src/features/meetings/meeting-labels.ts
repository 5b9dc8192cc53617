import { REPEAT, type MeetingOccurrence } from '@meetcast/contracts';

export type { MeetingOccurrence };

const CODES: readonly number[] = Object.values(REPEAT);
export const isRepeatCode = (value: number) => CODES.includes(value);
