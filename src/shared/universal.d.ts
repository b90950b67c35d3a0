/**
 * The few WHATWG globals that every runtime of ours has (Node, Electron main, preload,
 * Chromium). src/shared is typechecked without DOM and without Node types, so only what is
 * declared here is available to it: no `window`, no `document`, no `process`, no `Buffer`.
 */
declare class URL {
  constructor(input: string, base?: string | URL);
  readonly href: string;
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  readonly origin: string;
  readonly username: string;
  readonly password: string;
  toString(): string;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
