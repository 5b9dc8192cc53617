import { ROLE, type AdminUser, type AdminUserListInput, type UserStatus } from '@meetcast/contracts';
import {
  and,
  count,
  eq,
  inArray,
  isNotNull,
  isNull,
  meetings,
  notInArray,
  or,
  sql,
  users,
  type UserRow,
} from '@meetcast/db';
import type { AppContext } from '../context.js';
import { conflict } from '../http/app-error.js';
import type { Transaction } from './audit.js';
import { ordered, searchedId, type Slice } from './list-query.js';
import { toEpochSeconds } from '../platform/time.js';

// Serializes every change to who is an administrator, so two administrators demoting or deleting
// each other at the same moment cannot leave the installation without one.
const ADMIN_SET_LOCK_ID = 727_010;

export function userStatus(row: Pick<UserRow, 'disabledAt' | 'emailVerifiedAt'>): UserStatus {
  if (row.disabledAt) return 'disabled';
  return row.emailVerifiedAt ? 'active' : 'pending';
}

const statusOrder = sql`case when ${users.disabledAt} is not null then 2 when ${users.emailVerifiedAt} is null then 1 else 0 end`;
function userFilter(input: AdminUserListInput) {
  const search = input.search;
  const id = searchedId(search);
  return and(
    // One scan of a column the database keeps lower-cased ("username email"); no pattern escaping needed.
    search ? or(sql`strpos(${users.searchText}, lower(${search})) > 0`, id ? eq(users.id, id) : undefined) : undefined,
    input.role_id ? eq(users.roleId, Number(input.role_id)) : undefined,
    input.status === 'disabled' ? isNotNull(users.disabledAt) : undefined,
    input.status === 'pending' ? and(isNull(users.disabledAt), isNull(users.emailVerifiedAt)) : undefined,
    input.status === 'active' ? and(isNull(users.disabledAt), isNotNull(users.emailVerifiedAt)) : undefined,
  );
}

const SORT_COLUMNS = {
  id: users.id,
  username: sql`lower(${users.username})`,
  email: users.email,
  role_id: users.roleId,
  status: statusOrder,
  created_at: users.createdAt,
} as const;

export function toAdminUser(row: UserRow, meetingsTotal: number): AdminUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    avatar: row.avatar,
    role_id: row.roleId === ROLE.admin ? ROLE.admin : ROLE.user,
    status: userStatus(row),
    disabled_at: row.disabledAt ? toEpochSeconds(row.disabledAt) : null,
    created_at: toEpochSeconds(row.createdAt),
    meetings_count: meetingsTotal,
  };
}

/** One page of users matching the search and filters, with the total that match. */
export async function listUsers(context: AppContext, input: AdminUserListInput, slice: Slice) {
  const where = userFilter(input);
  const sortColumn = SORT_COLUMNS[input.sort ?? 'id'];
  const direction = input.direction ?? (input.sort ? 'asc' : 'desc');
  const [rows, [totalRow]] = await Promise.all([
    context.db
      .select()
      .from(users)
      .where(where)
      .orderBy(ordered(sortColumn, direction), ordered(users.id, direction))
      .limit(slice.limit)
      .offset(slice.offset),
    context.db.select({ total: count() }).from(users).where(where),
  ]);
  const hosted = await meetingCounts(
    context,
    rows.map((row) => row.id),
  );
  return { rows: rows.map((row) => toAdminUser(row, hosted.get(row.id) ?? 0)), total: totalRow?.total ?? 0 };
}

/** Meetings hosted per user, for the users of one page only. */
async function meetingCounts(context: AppContext, ids: number[]) {
  if (ids.length === 0) return new Map<number, number>();
  const rows = await context.db
    .select({ hostId: meetings.hostId, total: count() })
    .from(meetings)
    .where(inArray(meetings.hostId, ids))
    .groupBy(meetings.hostId);
  return new Map(rows.map((row) => [row.hostId, row.total]));
}

/**
 * Refuses a change that would leave no active administrator. Takes the admin-set lock first, so it
 * must run inside the transaction that makes the change.
 */
export async function assertAdministratorsRemain(tx: Transaction, leavingIds: number[]) {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_SET_LOCK_ID})`);
  const [row] = await tx
    .select({ remaining: count() })
    .from(users)
    .where(
      and(
        eq(users.roleId, ROLE.admin),
        isNull(users.disabledAt),
        leavingIds.length > 0 ? notInArray(users.id, leavingIds) : undefined,
      ),
    );
  if ((row?.remaining ?? 0) === 0) throw conflict('admin.last_admin');
}

export async function findUsers(tx: Transaction, ids: number[]) {
  return tx.select().from(users).where(inArray(users.id, ids));
}
