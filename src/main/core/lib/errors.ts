import type { AppErrorBody, AppErrorCode, Issue } from '../../../shared/contract';

/** An error the caller can act on; anything else thrown by a handler becomes INTERNAL. */
export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
  }
  toBody(): AppErrorBody {
    return this.issues
      ? { code: this.code, message: this.message, issues: this.issues }
      : { code: this.code, message: this.message };
  }
}

/** The workspace file itself is unusable: wrong kind of file, newer schema, corrupted. */
export class WorkspaceError extends AppError {
  constructor(message: string) {
    super('WORKSPACE_ERROR', message);
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
