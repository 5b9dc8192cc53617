/**
 * Creates many users quickly (for the admin tables and their benchmark): one argon2 hash reused
 * for every account, rows written in bulk inserts of 1,000.
 *
 *   node --import tsx scripts/seed-users.ts [--count 10000] [--password "seeded password"]
 *        [--admin-email admin@example.test --admin-password "..."]
 *
 * Uses DATABASE_URL when set, otherwise the embedded database under DATA_DIR (default ./data).
 * Seeded accounts are confirmed regular users (role_id 2); about 2 % are disabled. On an empty
 * installation pass --admin-email/--admin-password so that an administrator exists.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { openDatabase, sql, users, type Database } from '@meetcast/db';
import { hashPassword } from '../apps/server/src/platform/hashing.js';

const FIRST = [
  'Anna',
  'Ben',
  'Chloe',
  'David',
  'Emma',
  'Felix',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Kara',
  'Liam',
  'Mila',
  'Noah',
  'Olga',
  'Paul',
  'Quinn',
  'Rosa',
  'Sami',
  'Tara',
  'Umar',
  'Vera',
  'Wen',
  'Xavier',
  'Yuki',
  'Zoe',
];
const LAST = [
  'Smith',
  'Müller',
  'García',
  'Rossi',
  'Kowalski',
  'Nagy',
  'Papadopoulos',
  'Andersson',
  'Jensen',
  'Yılmaz',
  'Ivanova',
  'Tanaka',
  'Wang',
  'Silva',
  'Haddad',
  'Dubois',
  'Novak',
  'Costa',
  'Berg',
  'Okafor',
];
const BATCH = 1000;
const DAY_MS = 86_400_000;

export interface SeedOptions {
  count: number;
  password: string;
  /** Distinguishes runs so that e-mail addresses stay unique when seeding twice. */
  tag?: string;
  admin?: { email: string; password: string; username?: string };
}

/** Inserts `count` confirmed users (and optionally an administrator); returns how long it took. */
export async function seedUsers(db: Database, options: SeedOptions) {
  const started = performance.now();
  const passwordHash = await hashPassword(options.password);
  const tag = options.tag ?? Date.now().toString(36);
  const now = Date.now();
  if (options.admin) {
    await db
      .insert(users)
      .values({
        username: options.admin.username ?? 'Administrator',
        email: options.admin.email.toLowerCase(),
        passwordHash: await hashPassword(options.admin.password),
        roleId: 1,
        emailVerifiedAt: new Date(),
      })
      .onConflictDoNothing();
  }
  for (let offset = 0; offset < options.count; offset += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, options.count - offset) }, (_, index) => {
      const n = offset + index;
      const first = FIRST[n % FIRST.length] as string;
      const last = LAST[Math.floor(n / FIRST.length) % LAST.length] as string;
      // Spread over the last 120 days so the dashboard charts have a shape.
      const createdAt = new Date(now - ((n * 7919) % 120) * DAY_MS - (n % 86_400) * 1000);
      return {
        username: `${first} ${last} ${n}`,
        email: `${first}.${last}.${n}.${tag}@example.test`
          .toLowerCase()
          .normalize('NFD')
          .replace(/[^\x20-\x7e]/g, ''),
        passwordHash,
        roleId: 2,
        emailVerifiedAt: createdAt,
        disabledAt: n % 50 === 49 ? createdAt : null,
        createdAt,
        updatedAt: createdAt,
      };
    });
    await db.insert(users).values(rows);
  }
  await db.execute(sql`analyze users`);
  return { milliseconds: Math.round(performance.now() - started) };
}

async function main() {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '10000' },
      password: { type: 'string', default: 'seeded password 123' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
    },
  });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000) throw new Error('--count must be 1 to 1000000');
  const url = process.env.DATABASE_URL || undefined;
  const handle = await openDatabase(url ? { url } : { dataDir: process.env.DATA_DIR ?? './data' });
  try {
    const admin =
      values['admin-email'] && values['admin-password']
        ? { email: values['admin-email'], password: values['admin-password'] }
        : undefined;
    const { milliseconds } = await seedUsers(handle.db, { count, password: values.password, admin });
    console.log(`seeded ${count} users into ${handle.kind} in ${milliseconds} ms (password: "${values.password}")`);
  } finally {
    await handle.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
