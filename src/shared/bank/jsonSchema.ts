/** JSON Schema (draft 2020-12) of any bank schema, for the sandbox's OpenAPI document. */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * `io: 'input'` describes what a client sends (query strings before coercion);
 * refinements that JSON Schema cannot express are left to runtime validation.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: ({ jsonSchema }) => {
      // zod names `.startsWith()` as format "starts_with", which is no JSON Schema format; its
      // pattern (^prefix.*) already says it.
      if (jsonSchema.format === 'starts_with' && typeof jsonSchema.pattern === 'string') delete jsonSchema.format;
    },
  });
  const { $schema: _ignored, ...rest } = generated as JsonSchema;
  return rest;
}
