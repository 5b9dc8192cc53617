/** The operations of our OpenAPI description, as the fuzz and authorization tests read them. */
export interface Operation {
  path: string;
  fields: Map<string, FieldSchema>;
  /** 'user' or 'admin' when the operation declares the `token` security scheme. */
  auth: 'none' | 'user' | 'admin';
}

export interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: FieldSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

interface OpenApiDocument {
  paths: Record<
    string,
    {
      post?: {
        security?: Record<string, string[]>[];
        requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, FieldSchema> } }> };
      };
    }
  >;
}

export async function readOperations(baseUrl: string): Promise<Operation[]> {
  const document = (await (await fetch(`${baseUrl}/api/openapi.json`)).json()) as OpenApiDocument;
  return Object.entries(document.paths).flatMap(([path, item]) => {
    if (!item.post || !path.startsWith('/api/')) return [];
    const content = Object.values(item.post.requestBody?.content ?? {})[0];
    const scopes = item.post.security?.[0]?.token;
    return [
      {
        path,
        fields: new Map(Object.entries(content?.schema?.properties ?? {})),
        auth: scopes === undefined ? 'none' : scopes.includes('administrator') ? 'admin' : 'user',
      } satisfies Operation,
    ];
  });
}
