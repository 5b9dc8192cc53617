import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, instant, updatedAt } from './columns.js';

export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone').notNull().default(''),
    company: text('company').notNull().default(''),
    notes: text('notes').notNull().default(''),
    isFavourite: boolean('is_favourite').notNull().default(false),
    deletedAt: instant('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('contacts_owner_email_unique').on(table.ownerId, table.email),
    index('contacts_owner_idx').on(table.ownerId),
  ],
);

export const channels = pgTable(
  'channels',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    category: text('category').notNull().default(''),
    avatar: text('avatar'),
    cover: text('cover'),
    links: jsonb('links').$type<{ label: string; url: string }[]>().notNull().default([]),
    visibility: text('visibility', { enum: ['public', 'unlisted'] })
      .notNull()
      .default('public'),
    hiddenAt: instant('hidden_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('channels_slug_unique').on(table.slug),
    uniqueIndex('channels_owner_unique').on(table.ownerId),
  ],
);

/**
 * A channel's brand kit (ADR 046): what its broadcasts look like. One row per channel, made on the
 * first change; a channel without one broadcasts with the defaults. Pictures are paths under uploads/.
 */
export const brandKits = pgTable('brand_kits', {
  channelId: integer('channel_id')
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  accentColor: text('accent_color').notNull().default('#2563eb'),
  /** NAME_TAG_STYLES in the contracts. */
  nameTagStyle: text('name_tag_style').notNull().default('classic'),
  logo: text('logo'),
  background: text('background'),
  overlay: text('overlay'),
  updatedAt: updatedAt(),
});

/**
 * The overlay library of a channel's brand kit (issue 45): up to 10 uploaded images (the limit is
 * the contracts' BRAND_OVERLAY_LIBRARY_LIMIT, checked by the server), one of which the host may put
 * on a running broadcast from the Live panel. `path` is under uploads/; its file goes with the row.
 */
export const brandOverlays = pgTable(
  'brand_overlays',
  {
    id: serial('id').primaryKey(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('brand_overlays_channel_idx').on(table.channelId, table.id)],
);

export const channelFollowers = pgTable(
  'channel_followers',
  {
    id: serial('id').primaryKey(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('channel_followers_unique').on(table.channelId, table.userId)],
);

export const calendarEvents = pgTable(
  'calendar_events',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    startTime: instant('start_time').notNull(),
    endTime: instant('end_time').notNull(),
    isAllDay: boolean('is_all_day').notNull().default(false),
    color: text('color').notNull().default('#4f46e5'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('calendar_events_user_idx').on(table.userId, table.startTime)],
);
export type BrandKitRow = typeof brandKits.$inferSelect;
export type BrandOverlayRow = typeof brandOverlays.$inferSelect;
