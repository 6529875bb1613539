import { Type, type Static } from 'typebox';
import type { GuestSession } from './guest-access.service.ts';

export const CodeParams = Type.Object({
  code: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'the opaque code of a signing link, exactly as mailed',
  }),
});

export const GuestTokenResponse = Type.Object({
  accessToken: Type.String({
    description: "GUEST access token: claim type GUEST, sub the recipient's user id, claims recipientId and workflowId",
  }),
  refreshToken: Type.String({ description: 'renews the guest session with POST /auth/v1/signin grant REFRESH_TOKEN' }),
  userId: Type.Integer({ description: "the recipient's (possibly guest) user id" }),
  workflowId: Type.Integer(),
  recipientId: Type.Integer({ description: 'the recipient row the token acts as' }),
  tokenType: Type.Literal('Bearer'),
  expiry: Type.Integer({ description: 'seconds until the access token expires' }),
});

export function toGuestTokenResponse(session: GuestSession): Static<typeof GuestTokenResponse> {
  return {
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    userId: session.userId,
    workflowId: session.workflowId,
    recipientId: session.recipientId,
    tokenType: session.tokenType,
    expiry: session.expiry,
  };
}

export const SignLinkResponse = Type.Object({
  redeemPath: Type.String({
    description: 'GET this path (relative to the service) to exchange the code for a guest session',
  }),
  expiresAt: Type.String({ format: 'date-time', description: 'until when the code can be redeemed' }),
});
