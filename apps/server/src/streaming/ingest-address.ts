import { networkInterfaces } from 'node:os';
import {
  AddressRefusedError,
  connectTargetFor,
  literalAddress,
  withOwnAddresses,
  type AddressPolicy,
  type ConnectTarget,
} from '../platform/address-policy.js';
import type { AppConfig } from '../env.js';
import { DestinationError } from './destination-driver.js';

/**
 * Where a stream may be pushed: outside this machine and its networks, or listed in
 * RTMP_ALLOW_PRIVATE. The machine's interfaces are read each time: addresses come and go.
 */
export function streamAddressPolicy(config: AppConfig): AddressPolicy {
  const own = Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
  return withOwnAddresses(config.streaming.allowPrivate, own);
}

export function ingestConnectTarget(config: AppConfig): ConnectTarget {
  return (url) => connectTargetFor(streamAddressPolicy(config))(url);
}

/**
 * The connect-time check of an ingest address (a person's RTMP address, or the one YouTube or Twitch
 * answered), after resolving its name: one inside fails the destination for good; a name that does
 * not resolve now is tried again like a platform that is down. Answers the address to push to, as
 * parsed for the check: a literal address in its usual spelling, so that the publisher connects exactly
 * where was checked; a name stays a name (RTMPS needs it for TLS, RTMP servers read it).
 */
export async function checkedIngestUrl(connectTarget: ConnectTarget, ingestUrl: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(ingestUrl);
  } catch {
    throw new DestinationError('broadcasts.destination_unreachable', false);
  }
  try {
    const { address } = await connectTarget(url);
    if (literalAddress(url.hostname) !== undefined) url.hostname = address.includes(':') ? `[${address}]` : address;
    // The address as parsed here (tabs and line breaks dropped), so that the publisher cannot read another host.
    return url.href;
  } catch (error) {
    if (!(error instanceof AddressRefusedError)) throw error;
    if (error.reason === 'unresolved') throw new DestinationError('broadcasts.destination_unreachable', true);
    throw new DestinationError('broadcasts.destination_address_inside', false);
  }
}
