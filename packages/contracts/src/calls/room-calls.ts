import type { CallTable } from './call.js';
import { GetRoomInputSchema, GetRoomOutputSchema, JoinRoomInputSchema, JoinRoomOutputSchema } from '../room.js';

/** The meeting room. */
export const roomCalls = {
  'get-room.php': { auth: 'optional', input: GetRoomInputSchema, output: GetRoomOutputSchema },
  'join-room.php': { auth: 'optional', input: JoinRoomInputSchema, output: JoinRoomOutputSchema },
} as const satisfies CallTable;
