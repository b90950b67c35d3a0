/** The error body of the real service: one human-readable sentence (conventions.md). */
import { z } from 'zod';

export const errorBody = z.looseObject({
  error: z.string(),
});
export type ErrorBody = z.infer<typeof errorBody>;
