// What the job layer logs through: pino's shape (the server's logger), or a quiet one for the CLI.
export interface JobLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export const silentLog: JobLog = { info() {}, warn() {}, error() {} };
