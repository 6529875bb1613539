/**
 * UNAVAILABLE: the provider cannot be reached, is too slow, answers 5xx or something that is not the protocol,
 * or refuses the service's own client credentials (a configuration fault the signer cannot fix): 503.
 * REFUSED: the provider refused what the signer brought: the authorization code, the credential authorization
 * (401/403 on signHash), or a request about a credential (400): 422.
 */
export type CscFailure = 'UNAVAILABLE' | 'REFUSED';

export class CscError extends Error {
  readonly failure: CscFailure;
  constructor(failure: CscFailure, message: string) {
    super(message);
    this.name = 'CscError';
    this.failure = failure;
  }
}
