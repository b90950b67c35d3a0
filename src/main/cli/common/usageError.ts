/**
 * A mistake in what was typed on a command line (`ledger`, `ledger serve`, `npm run listen` and
 * its inspect/replay/export): each command line prints its message with its usage and exits 2,
 * where any other failure exits 1. One class for all of them, so a shared parser's mistakes are
 * told the same way by every command line.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
