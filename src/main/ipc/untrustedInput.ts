/**
 * A structural check of what arrives over IPC, before the contract's schema looks at it:
 * only plain data (no prototypes to pollute, no functions, no NaN), bounded in depth and
 * size. The schema then checks the meaning. Two layers, because a schema library walking a
 * hostile value is itself an attack surface.
 */
import { FILE_MAX_BYTES } from '../../shared/bank/index.ts';

export interface InputLimits {
  maxDepth: number;
  /** Total characters over every string and key. */
  maxStringChars: number;
  /** Total entries over every object and array. */
  maxEntries: number;
  /** Total bytes over every Uint8Array (file uploads). */
  maxBytes: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = {
  maxDepth: 16,
  maxStringChars: 2 * 1024 * 1024,
  maxEntries: 20_000,
  maxBytes: FILE_MAX_BYTES,
};

/** The one field name under which the contract takes raw bytes (a Uint8Array). */
const BYTES_FIELD = 'bytes';

/** Keys that reach an object's prototype when assigned: never legitimate in our inputs. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface InputProblem {
  /** Dotted path of the offending value ("" for the input itself). */
  field: string;
  problem: string;
}

function pathOf(path: readonly string[]): string {
  return path.join('.');
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Null when the value is acceptable plain data; otherwise the first problem found. */
export function inspectUntrustedInput(value: unknown, limits: InputLimits = DEFAULT_INPUT_LIMITS): InputProblem | null {
  let stringChars = 0;
  let entries = 0;
  let bytes = 0;

  function visit(current: unknown, path: string[], depth: number): InputProblem | null {
    if (current === null || current === undefined || typeof current === 'boolean') return null;
    if (typeof current === 'number') {
      return Number.isFinite(current) ? null : { field: pathOf(path), problem: 'must be a finite number' };
    }
    if (typeof current === 'string') {
      stringChars += current.length;
      return stringChars > limits.maxStringChars
        ? { field: pathOf(path), problem: `is too large (more than ${limits.maxStringChars} characters in all)` }
        : null;
    }
    if (typeof current !== 'object') {
      return { field: pathOf(path), problem: `must be plain data, not a ${typeof current}` };
    }
    if (depth >= limits.maxDepth) {
      return { field: pathOf(path), problem: `is nested too deeply (more than ${limits.maxDepth} levels)` };
    }
    if (current instanceof Uint8Array) {
      // Bytes travel only in a field named `bytes` (files.upload). Anywhere else a schema
      // library may read a typed array as an object: an empty one passes for `{}`.
      if (path.at(-1) !== BYTES_FIELD) {
        return { field: pathOf(path), problem: `must not be bytes (bytes go only in a field named ${BYTES_FIELD})` };
      }
      bytes += current.byteLength;
      return bytes > limits.maxBytes
        ? { field: pathOf(path), problem: `is too large (more than ${limits.maxBytes} bytes)` }
        : null;
    }
    if (Array.isArray(current)) {
      entries += current.length;
      if (entries > limits.maxEntries) {
        return { field: pathOf(path), problem: `has too many entries (more than ${limits.maxEntries})` };
      }
      for (let index = 0; index < current.length; index += 1) {
        const problem = visit(current[index], [...path, String(index)], depth + 1);
        if (problem !== null) return problem;
      }
      return null;
    }
    if (!isPlainObject(current)) {
      return { field: pathOf(path), problem: 'must be a plain object' };
    }
    const keys = Reflect.ownKeys(current);
    entries += keys.length;
    if (entries > limits.maxEntries) {
      return { field: pathOf(path), problem: `has too many entries (more than ${limits.maxEntries})` };
    }
    for (const key of keys) {
      if (typeof key !== 'string') return { field: pathOf(path), problem: 'must not have symbol keys' };
      if (FORBIDDEN_KEYS.has(key)) return { field: pathOf([...path, key]), problem: 'is not an allowed field name' };
      stringChars += key.length;
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      if (descriptor === undefined || 'get' in descriptor || 'set' in descriptor) {
        return { field: pathOf([...path, key]), problem: 'must be a plain value, not an accessor' };
      }
      const problem = visit(descriptor.value, [...path, key], depth + 1);
      if (problem !== null) return problem;
    }
    return null;
  }

  return visit(value, [], 0);
}
