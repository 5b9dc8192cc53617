import sharp from 'sharp';
import type { CallDefinition } from '@meetcast/contracts';
import { apiPost, type Account, type DataOf, type TestInput } from './api';

/** A real picture, made on the spot: a 640×480 PNG. */
export async function realPng(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: '#4f46e5' } })
    .png()
    .toBuffer();
}

/** A text file that only pretends to be a picture by its name. */
export const FAKE_PNG = {
  name: 'holiday.png',
  mimeType: 'image/png',
  buffer: Buffer.from('This is a text file, not a picture.'),
};

/** A call made as `account`, with its token: the `data` of its answer; a refusal throws. */
export async function callAs<Call extends CallDefinition>(account: Account, call: Call, fields: TestInput<Call> = {}) {
  const answer = await apiPost(call, { token: account.token, ...fields });
  if (answer.body.status !== 'success') throw new Error(`${call.name} failed: ${answer.body.message}`);
  return answer.body.data as DataOf<Call>;
}

export const uniqueSlug = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e4)}`;
