import type { Linter } from 'eslint';

/** The import-boundary rules of DESIGN.md (see eslint.boundaries.mjs). */
export declare const boundaries: Linter.Config[];
