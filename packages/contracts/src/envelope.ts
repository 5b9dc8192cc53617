import { z } from 'zod';

/** Every response body: `{ status, message, data? }`. */
export const ErrorBodySchema = z.object({
  status: z.literal('error'),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const MessageBodySchema = z.object({
  status: z.literal('success'),
  message: z.string(),
});

export function successBody<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), message: z.string(), data });
}

/** `data.data` in the contract: the body's data holds an object whose own data is the payload. */
export function nestedData<T extends z.ZodType>(payload: T) {
  return successBody(z.object({ data: payload }));
}
