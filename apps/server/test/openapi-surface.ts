import type { CallAuth } from '@meetcast/contracts';
import { calls, fileCallTable } from '@meetcast/contracts/call-table';

/**
 * The calls of the table of calls (packages/contracts), each with its fields as our OpenAPI description
 * declares them, as the fuzz and authorization tests read them.
 */
export interface Operation {
  /** The file-style name of the call, for example `login.php`. */
  name: string;
  path: string;
  fields: Map<string, FieldSchema>;
  auth: CallAuth;
}

export interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: FieldSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

export interface OpenApiOperation {
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, FieldSchema> } }> };
}

export interface OpenApiDocument {
  paths: Record<string, { post?: OpenApiOperation }>;
}

/** Every call of the table, the ones that answer a file included. */
export const everyCall = { ...calls, ...fileCallTable };

export async function readOpenApi(baseUrl: string): Promise<OpenApiDocument> {
  return (await (await fetch(`${baseUrl}/api/openapi.json`)).json()) as OpenApiDocument;
}

export async function readOperations(baseUrl: string): Promise<Operation[]> {
  const document = await readOpenApi(baseUrl);
  return Object.entries(everyCall).map(([name, { auth }]) => {
    const path = `/api/${name}`;
    const content = Object.values(document.paths[path]?.post?.requestBody?.content ?? {})[0];
    return { name, path, fields: new Map(Object.entries(content?.schema?.properties ?? {})), auth };
  });
}

/** The fields a call reads besides `token` and `lng`, from its input schema in the table. */
export function fieldsOf(name: keyof typeof everyCall): string[] {
  return Object.keys(everyCall[name].input.shape).filter((field) => field !== 'token' && field !== 'lng');
}
