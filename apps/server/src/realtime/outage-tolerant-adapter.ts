import { RedisAdapter, type RedisAdapterOptions } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { Namespace } from 'socket.io';
import { duplicateRedis, subscriberRedis } from '../platform/redis.js';

type FetchOptions = Parameters<RedisAdapter['fetchSockets']>[0];

/**
 * The Socket.IO Redis adapter, made to live through a Redis outage (docs/decisions/008).
 *
 * The stock adapter publishes without looking at the answer: while Redis is away each emit's
 * publish rejected with nobody to catch it, and the process died of it. Here a failed publish is
 * dropped: the event has already reached this process's own sockets, and the other processes'
 * sockets get what follows once Redis is back (clients load the room state again when they
 * reconnect). Asking the other processes for their sockets (presence) answers with this process's
 * own sockets while Redis is away instead of failing the caller.
 */
export function outageTolerantAdapter(redis: Redis, options: Partial<RedisAdapterOptions>) {
  const publisher = withDroppedFailures(duplicateRedis(redis));
  // Each namespace subscribes once, when it is made: that must wait for Redis rather than fail.
  const subscriber = subscriberRedis(redis);
  return {
    // Socket.IO calls it with `new`: a function, not an arrow.
    adapter: function (namespace: Namespace) {
      return new OutageTolerantRedisAdapter(namespace, publisher, subscriber, options);
    },
    /** After Socket.IO closed: its connections would otherwise go on reconnecting to a Redis that is gone. */
    disconnect: () => {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}

class OutageTolerantRedisAdapter extends RedisAdapter {
  constructor(
    namespace: Namespace,
    private readonly publisher: Redis,
    subscriber: Redis,
    options: Partial<RedisAdapterOptions>,
  ) {
    super(namespace, publisher, subscriber, options);
  }

  override async fetchSockets(options: FetchOptions) {
    const local = () => super.fetchSockets({ ...options, flags: { ...options.flags, local: true } });
    if (this.publisher.status !== 'ready') return local();
    // Redis went away while the other processes were being asked (or one of them did not answer in time).
    return super.fetchSockets(options).catch(local);
  }
}

/** The adapter never awaits a publish; a failed one must not become an unhandled rejection. */
function withDroppedFailures(client: Redis): Redis {
  const publish = client.publish.bind(client);
  return Object.assign(client, {
    publish: (channel: string | Buffer, message: string | Buffer) => {
      const published = publish(channel, message);
      published.catch(() => undefined);
      return published;
    },
  });
}
