/**
 * Validation with messages a person can act on: every problem names its field
 * (`amount: must be an amount with two decimals ...`).
 */
import type { z } from 'zod';
import type { ContractAnswer } from '../ipc/contractAnswer.ts';

export type Parsed<Value> =
  | { ok: true; value: Value }
  | {
      ok: false;
      problems: string[];
      /** The field of each problem, in order ('' for the whole value). */ fields: string[];
    };

function fieldOf(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${String(key)}]` : (index === 0 ? '' : '.') + String(key)))
    .join('');
}

/** One line per problem, each starting with the field it concerns. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const field = fieldOf(issue.path);
    return field === '' ? issue.message : `${field}: ${issue.message}`;
  });
}

export function parseWith<Schema extends z.ZodType>(schema: Schema, input: unknown): Parsed<z.output<Schema>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: describeIssues(result.error.issues),
    fields: result.error.issues.map((issue) => fieldOf(issue.path)),
  };
}

/**
 * A value that did not match its schema; `problems` name the fields, and `field` is the
 * first one (absent when the problem is about the whole value), so a caller can put the
 * error beside the field it concerns.
 */
export class SchemaViolation extends Error {
  readonly problems: string[];
  readonly field?: string;
  constructor(what: string, problems: string[], fields: readonly string[] = []) {
    super(`${what}: ${problems.join('; ')}`);
    this.name = 'SchemaViolation';
    this.problems = problems;
    const first = fields.find((field) => field !== '');
    if (first !== undefined) this.field = first;
  }

  /** Answered like the router's own input check, naming the field so the form can show it there. */
  get answer(): ContractAnswer {
    return {
      code: 'invalid_input',
      ...(this.problems.length > 0 ? { message: this.problems.slice(0, 3).join('; ') } : {}),
      action: 'Correct the highlighted field and try again.',
      ...(this.field === undefined ? {} : { field: this.field }),
    };
  }
}

/** Parse or throw a SchemaViolation whose message says what was being read. */
export function parseOrThrow<Schema extends z.ZodType>(schema: Schema, input: unknown, what: string): z.output<Schema> {
  const parsed = parseWith(schema, input);
  if (!parsed.ok) throw new SchemaViolation(what, parsed.problems, parsed.fields);
  return parsed.value;
}
