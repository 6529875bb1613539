import { AppError, type ErrorCode } from '../../errors.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';

/** Concurrent writes of one name race past the service's pre-check; the unique index turns the loser into `code` (409). */
export async function withNameConflict<T>(code: ErrorCode, message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(code, message);
    throw error;
  }
}
