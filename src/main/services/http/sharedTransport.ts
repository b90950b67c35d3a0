/**
 * The process's one transport, for callers not handed one: connections are pooled across
 * every client of the process, as one browser pools them across tabs.
 */
import { HttpTransport } from './transport.ts';

let shared: HttpTransport | null = null;

export function sharedTransport(): HttpTransport {
  shared ??= new HttpTransport();
  return shared;
}
