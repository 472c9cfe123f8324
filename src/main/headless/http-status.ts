import type { ApiResult, AppErrorCode } from '../../shared/contract';

const STATUS: Record<AppErrorCode, number> = {
  UNKNOWN_PROCEDURE: 404,
  INVALID_INPUT: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  READ_ONLY: 409,
  WORKSPACE_ERROR: 500,
  INTERNAL: 500,
};

export const httpStatusOf = (r: ApiResult<unknown>): number => (r.ok ? 200 : STATUS[r.error.code]);
