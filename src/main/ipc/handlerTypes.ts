/** The shape of the handlers the router dispatches to, derived from the contract. */
import type { Domain, HandlerOutputOf, MethodOf, ParsedInputOf } from '../../shared/ipc/contract.ts';

/** What a handler knows about the call besides its input. */
export interface HandlerContext {
  /** The webContents that called (a trusted window): for dialogs parented to it. */
  webContentsId: number;
  /** The operation, e.g. `webhooks.create`. */
  channel: string;
}

export type Handler<D extends Domain, M extends MethodOf<D>> = (
  input: ParsedInputOf<D, M>,
  context: HandlerContext,
) => Promise<HandlerOutputOf<D, M>> | HandlerOutputOf<D, M>;

/** Every operation of the contract, by domain and method. */
export type Handlers = { [D in Domain]: { [M in MethodOf<D>]: Handler<D, M> } };

/** Some operations: what tests register. A missing one answers `not_available`. */
export type PartialHandlers = { [D in Domain]?: { [M in MethodOf<D>]?: Handler<D, M> } };
