import type { CallDefinition } from './call.js';
import { GetRoomInputSchema, GetRoomOutputSchema, JoinRoomInputSchema, JoinRoomOutputSchema } from '../room.js';

/* The meeting room. */
export const getRoom = {
  name: 'get-room.php',
  auth: 'optional',
  input: GetRoomInputSchema,
  output: GetRoomOutputSchema,
} as const satisfies CallDefinition;
export const joinRoom = {
  name: 'join-room.php',
  auth: 'optional',
  input: JoinRoomInputSchema,
  output: JoinRoomOutputSchema,
} as const satisfies CallDefinition;
