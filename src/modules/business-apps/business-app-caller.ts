import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';

/**
 * Business apps and their webhook deliveries are managed with a person's own sign-in. A CLIENT token acts as a
 * user (possibly the owner) but holds the very credentials these routes mint and rotate, so it is refused (403).
 */
export function assertPersonalSession(caller: UserCaller): void {
  if (caller.appId !== undefined) {
    throw new AppError(
      'USER_NOT_HAVE_ACCESS',
      'Business apps and webhooks are managed with a personal sign-in, not a business app token',
    );
  }
}
