import type { Notification } from '@meetcast/contracts';
import { notifications, type Database } from '@meetcast/db';
import { toEpochSeconds } from '../platform/time.js';

type Delivery = (userId: number, notification: Notification) => void;

/** The one way features tell a person something in the app: stored, then pushed live. */
export class Notifier {
  private readonly deliveries: Delivery[] = [];

  constructor(private readonly db: Database) {}

  /** Live delivery (Socket.IO) registers here; without it notifications still wait in the list. */
  onDelivery(delivery: Delivery) {
    this.deliveries.push(delivery);
  }

  async notify(userId: number, html: string): Promise<Notification> {
    const [row] = await this.db.insert(notifications).values({ userId, text: html }).returning();
    if (!row) throw new Error('notification insert returned nothing');
    const notification = {
      id: row.id,
      text: row.text,
      created_at: toEpochSeconds(row.createdAt),
    };
    for (const deliver of this.deliveries) deliver(userId, notification);
    return notification;
  }
}
