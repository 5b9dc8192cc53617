import type { User } from '@meetcast/contracts';
import type { users } from '@meetcast/db';

export type UserRow = typeof users.$inferSelect;

export const toEpochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
export const toEpochSecondsOrNull = (date: Date | null) => (date ? toEpochSeconds(date) : null);

export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    avatar: row.avatar,
    role_id: row.roleId === 1 ? 1 : 2,
    language: row.language,
    time_zone: row.timeZone,
    created_at: toEpochSeconds(row.createdAt),
  };
}
