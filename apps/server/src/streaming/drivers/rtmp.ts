import type { AppContext } from '../../context.js';
import { DestinationError, type DestinationDriver } from '../destination-driver.js';
import { usableConnection } from '../platform-tokens.js';
import { secretsBoxFor, SecretsUnreadableError } from '../../platform/secrets-box.js';

/** The stored address with the key as its last path segment, whether or not the address ends in a slash. */
export function rtmpIngestUrl(address: string, streamKey: string): string {
  return `${address.replace(/\/+$/, '')}/${streamKey}`;
}

/** A custom RTMP(S) address: the push itself is all there is; no platform to tell anything. */
export function createRtmpDriver(context: AppContext): DestinationDriver {
  return {
    async prepare(destination) {
      const { connection } = await usableConnection(context, destination.connectionId);
      if (!connection.rtmpUrl || !connection.streamKeySealed) {
        throw new DestinationError('stream_connections.connection_missing', false);
      }
      try {
        return {
          ingestUrl: rtmpIngestUrl(connection.rtmpUrl, secretsBoxFor(context.config).open(connection.streamKeySealed)),
        };
      } catch (error) {
        if (error instanceof SecretsUnreadableError) {
          throw new DestinationError('stream_connections.secrets_unreadable', false);
        }
        throw error;
      }
    },
    async goLive() {},
    async status() {
      return {};
    },
    async finish() {},
  };
}
