import { z } from 'zod';
import { AdminExportInputSchema } from '../admin.js';
import type { CallDefinition } from './call.js';

/* The calls that answer a file instead of the JSON body; their errors keep the JSON body. */
export const adminExport = {
  name: 'admin-export.php',
  auth: 'admin',
  input: AdminExportInputSchema,
  output: z.string().describe('text/csv; charset=utf-8'),
} as const satisfies CallDefinition;
