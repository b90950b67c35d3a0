/** The main process's log: lines on standard error, never a secret (callers scrub). */
export interface Logger {
  warn: (message: string) => void;
  error: (message: string) => void;
  info: (message: string) => void;
}

export function createLogger(write: (line: string) => void = (line) => process.stderr.write(line + '\n')): Logger {
  const at = (level: string, message: string): void => {
    write(`${new Date().toISOString()} ${level} ${message}`);
  };
  return {
    info: (message) => {
      at('info', message);
    },
    warn: (message) => {
      at('warn', message);
    },
    error: (message) => {
      at('error', message);
    },
  };
}
