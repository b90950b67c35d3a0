/**
 * A request the bank refuses, with the HTTP status it answers and one sentence that names the
 * problem. Thrown anywhere below the routes; the server turns it into `{"error": message}`.
 */
export class RequestProblem extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number, message: string, headers: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'RequestProblem';
    this.status = status;
    this.headers = headers;
  }
}
