import { integer, timestamp } from 'drizzle-orm/pg-core';

/** Every instant is stored in UTC; the API turns it into epoch seconds. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => instant('created_at').notNull().defaultNow();
export const updatedAt = () => instant('updated_at').notNull().defaultNow();
export const userRef = (name: string) => integer(name);
