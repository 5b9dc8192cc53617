import type { User } from '@meetcast/contracts';
import type { UserRow } from '@meetcast/db';
import { toEpochSeconds } from '../platform/time.js';

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
