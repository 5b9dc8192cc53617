import type { AdminAuditEntry } from '@meetcast/contracts';
import { auditLog, desc, eq, or, sql, users, type Database } from '@meetcast/db';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { likePattern } from './list-query.js';
import { toEpochSeconds } from '../platform/time.js';

/** A transaction handle: the same query builder as the database, rolled back as one. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Who did it and from where; every administrator action is written with it. */
export interface Actor {
  userId: number;
  ipAddress: string;
}

export function actorOf(session: { user: { id: number } }, request: FastifyRequest): Actor {
  return { userId: session.user.id, ipAddress: request.ip };
}

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId?: number | string | null;
  details?: Record<string, unknown>;
}

/**
 * Writes audit rows inside the transaction that made the change, so a change without its record
 * (or a record without its change) cannot exist. There is deliberately no call that edits them.
 */
export async function writeAudit(tx: Transaction | Database, actor: Actor, entries: AuditEntry[]) {
  if (entries.length === 0) return;
  await tx.insert(auditLog).values(
    entries.map((entry) => ({
      actorId: actor.userId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      ipAddress: actor.ipAddress,
      details: entry.details ?? null,
    })),
  );
}

export function auditFilter(search: string | undefined) {
  if (!search) return undefined;
  const pattern = likePattern(search);
  return or(
    sql`lower(${auditLog.action}) like ${pattern}`,
    sql`lower(${auditLog.targetType}) like ${pattern}`,
    sql`${auditLog.targetId} = ${search}`,
    sql`lower(${users.username}) like ${pattern}`,
    sql`lower(${users.email}) like ${pattern}`,
  );
}

export async function listAudit(
  context: AppContext,
  options: { search?: string | undefined; limit: number; offset: number },
): Promise<{ rows: AdminAuditEntry[]; total: number }> {
  const where = auditFilter(options.search);
  const [rows, [totalRow]] = await Promise.all([
    context.db
      .select({ entry: auditLog, actor: { id: users.id, username: users.username, email: users.email } })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(options.limit)
      .offset(options.offset),
    context.db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(where),
  ]);
  return {
    total: totalRow?.total ?? 0,
    rows: rows.map(({ entry, actor }) => ({
      id: entry.id,
      actor: actor?.id ? { id: actor.id, username: actor.username, email: actor.email } : null,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      ip_address: entry.ipAddress,
      details: isRecord(entry.details) ? entry.details : null,
      created_at: toEpochSeconds(entry.createdAt),
    })),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
