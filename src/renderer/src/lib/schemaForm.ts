/**
 * Form validation with the shared zod schemas: the same rules the main process applies,
 * run before anything is sent, with each problem placed beside its field.
 */
import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

/** The first problem of each field; problems of the whole object go under "". */
export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

export type Validated<Value> = { ok: true; value: Value } | { ok: false; errors: FieldErrors };

export function validate<Schema extends z.ZodType>(schema: Schema, input: unknown): Validated<z.output<Schema>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, errors: fieldErrorsOf(result.error.issues) };
}

/** Leaves out empty strings, so an optional field left blank is simply not sent. */
export function withoutBlanks<Value extends Record<string, unknown>>(value: Value): Partial<Value> {
  const result: Partial<Value> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry === '' || entry === undefined) continue;
    (result as Record<string, unknown>)[key] = entry;
  }
  return result;
}
