import type { Credentials } from './signin-api.ts';

/**
 * The place for the other ways to sign in (a passkey, a smart card), built separately. Each one signs in through
 * its own API (RUNTIME.md: /auth/webauthn/login/*, /auth/v1/smart_card/*), which answers the password-login shape,
 * and then calls `complete({ grant_type: 'REFRESH_TOKEN', refreshToken })`: the page hands that sign-in over to the
 * web session exactly like a password. Nothing is offered here yet, so the section stays hidden.
 */
export type OtherMethodProps = { complete: (credentials: Credentials) => void; busy: boolean };

export function OtherMethods(_props: OtherMethodProps) {
  return null;
}
