import type { StreamConnection } from '@meetcast/contracts';
import {
  and,
  broadcastDestinations,
  eq,
  inArray,
  isNotNull,
  streamConnections,
  type ConnectionRow,
} from '@meetcast/db';
import type { AppContext } from '../context.js';
import { badRequest } from '../http/app-error.js';
import { isMessageKey, type MessageKey } from '../i18n/messages.js';
import { AddressRefusedError, checkSavedAddress } from '../platform/address-policy.js';
import { secretsBoxFor, SecretsUnreadableError } from '../platform/secrets-box.js';
import { findOwnConnection, toConnectionDto } from './connection-service.js';
import { rtmpIngestUrl } from './drivers/rtmp.js';
import { ingestConnectTarget, streamAddressPolicy } from './ingest-address.js';
import { explainPublishFailure, testPush, type TestPushOutcome } from './rtmp-test-push.js';

/** The caller's RTMP address; a platform account is not one (400), another account's is not found (404). */
async function findOwnRtmp(context: AppContext, userId: number, id: number): Promise<ConnectionRow> {
  const row = await findOwnConnection(context, userId, id);
  if (row.platform !== 'rtmp') throw badRequest('stream_connections.not_rtmp');
  return row;
}

/** The same address checks as adding one (connection-service.ts `addRtmpConnection`). */
export async function checkRtmpAddress(context: AppContext, address: string) {
  const url = new URL(address);
  if (!url.hostname) throw badRequest('stream_connections.rtmp_url_invalid');
  await checkSavedAddress(url, streamAddressPolicy(context.config)).catch((error: unknown) => {
    throw error instanceof AddressRefusedError ? badRequest('stream_connections.rtmp_address_inside') : error;
  });
}

/**
 * Changes the name, address and (when given) the key of a saved RTMP address. A changed address or
 * key makes the last test say nothing any more: it was about another place.
 */
export async function editRtmpConnection(
  context: AppContext,
  userId: number,
  input: { id: number; name: string; url: string; stream_key?: string | undefined },
): Promise<ConnectionRow> {
  const row = await findOwnRtmp(context, userId, input.id);
  await checkRtmpAddress(context, input.url);
  const newKey = input.stream_key ? secretsBoxFor(context.config).seal(input.stream_key) : undefined;
  const placeChanged = input.url !== row.rtmpUrl || newKey !== undefined;
  const [updated] = await context.db
    .update(streamConnections)
    .set({
      name: input.name,
      rtmpUrl: input.url,
      ...(newKey ? { streamKeySealed: newKey } : {}),
      ...(placeChanged ? { lastTestAt: null, lastTestResult: null, lastTestReason: null } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(streamConnections.id, row.id), eq(streamConnections.userId, userId)))
    .returning();
  if (!updated) throw new Error('RTMP destination was not updated');
  return updated;
}

/**
 * Pushes a few seconds of a test pattern to the saved address and stores what happened. The address
 * goes through the same outgoing policy as going live, at connect time, after resolving.
 */
export async function testRtmpConnection(
  context: AppContext,
  userId: number,
  id: number,
): Promise<{ row: ConnectionRow; outcome: TestPushOutcome }> {
  const row = await findOwnRtmp(context, userId, id);
  if (!row.rtmpUrl || !row.streamKeySealed) throw badRequest('stream_connections.connection_missing');
  let streamKey: string;
  try {
    streamKey = secretsBoxFor(context.config).open(row.streamKeySealed);
  } catch (error) {
    if (error instanceof SecretsUnreadableError) throw badRequest('stream_connections.secrets_unreadable');
    throw error;
  }
  const connectTarget = ingestConnectTarget(context.config);
  const outcome = await connectTarget(new URL(row.rtmpUrl))
    .then(() => testPush(rtmpIngestUrl(row.rtmpUrl ?? '', streamKey), { connectTarget }))
    .catch((error: unknown): TestPushOutcome => ({ worked: false, reason: explainPublishFailure(error) }));
  const [updated] = await context.db
    .update(streamConnections)
    .set({
      lastTestAt: new Date(),
      lastTestResult: outcome.worked ? 'worked' : 'failed',
      lastTestReason: outcome.worked ? null : outcome.reason,
    })
    .where(eq(streamConnections.id, row.id))
    .returning();
  if (!updated) throw new Error('RTMP destination was removed during its test');
  context.log.info({ connectionId: row.id, outcome }, 'RTMP test push');
  return { row: updated, outcome };
}

/** The connection answered with what is known of it, its last test's reason translated. */
export function toTranslatedConnection(row: ConnectionRow, t: (key: MessageKey) => string): StreamConnection {
  const reason = row.lastTestReason;
  return { ...toConnectionDto(row), last_test_reason: reason !== null && isMessageKey(reason) ? t(reason) : reason };
}

/** Remembers when each connection last went live, from the destinations of a broadcast that changed. */
export function rememberLastLive(context: AppContext) {
  context.events.on('broadcast.changed', async ({ broadcastId }) => {
    const live = await context.db
      .select({ connectionId: broadcastDestinations.connectionId })
      .from(broadcastDestinations)
      .where(
        and(
          eq(broadcastDestinations.broadcastId, broadcastId),
          eq(broadcastDestinations.state, 'live'),
          isNotNull(broadcastDestinations.connectionId),
        ),
      );
    const ids = live.map((row) => row.connectionId).filter((id): id is number => id !== null);
    if (ids.length === 0) return;
    await context.db
      .update(streamConnections)
      .set({ lastLiveAt: new Date() })
      .where(inArray(streamConnections.id, ids));
  });
}
