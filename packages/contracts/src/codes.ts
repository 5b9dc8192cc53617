import { z } from 'zod';

/** The API's wire codes, as typed constants and the schemas that accept them. */
export const ROLE = { admin: 1, user: 2 } as const;
export const PRIVACY = { private: 1, public: 2 } as const;
export const PASSWORD_FLAG = { yes: 1, no: 2 } as const;
export const SCHEDULE_FLAG = { instant: 0, scheduled: 1 } as const;
export const REPEAT = { none: 0, daily: 1, weekly: 7, biweekly: 14, monthly: 30 } as const;

type ValueOf<T> = T[keyof T];
export type RoleId = ValueOf<typeof ROLE>;
export type Privacy = ValueOf<typeof PRIVACY>;
export type PasswordFlag = ValueOf<typeof PASSWORD_FLAG>;
export type ScheduleFlag = ValueOf<typeof SCHEDULE_FLAG>;
export type Repeat = ValueOf<typeof REPEAT>;

export const RoleIdSchema = z.union([z.literal(ROLE.admin), z.literal(ROLE.user)]);
