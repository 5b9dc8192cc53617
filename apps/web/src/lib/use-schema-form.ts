import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Resolver, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';

type FormSchema = z.ZodType<FieldValues, FieldValues>;

/** What a form built on `Schema` holds while it is edited, and what it hands over once valid. */
export type SchemaForm<Schema extends FormSchema> = UseFormReturn<z.input<Schema>, unknown, z.output<Schema>>;

/**
 * The one way a web form checks its input: react-hook-form validated by a schema from
 * `@meetcast/contracts` (a call's input schema, or one picked or derived from it), so the browser and
 * the server refuse the same values. Field errors are shown by the form, translated, from
 * `formState.errors`.
 */
export function useSchemaForm<Schema extends FormSchema>(
  schema: Schema,
  options: Omit<UseFormProps<z.input<Schema>, unknown, z.output<Schema>>, 'resolver'> = {},
): SchemaForm<Schema> {
  // The resolver's overloads cannot follow a generic schema; its type is the one zodResolver gives a concrete one.
  const resolver = zodResolver(schema) as unknown as Resolver<z.input<Schema>, unknown, z.output<Schema>>;
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({ ...options, resolver });
}
