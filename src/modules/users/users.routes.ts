import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf, userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { UsersService } from './users.service.ts';
import {
  LocaleBody,
  LocaleResponse,
  NotificationPreferences,
  NotificationPreferencesBody,
  ProfileResponse,
  SecurityBody,
  SecurityResponse,
  TotpEnrollmentResponse,
  toProfileResponse,
} from './users.schemas.ts';

/** JSON only when the client asks for it and does not also ask for the image (the runtime contract: PNG by default). */
function wantsJson(accept: string | undefined): boolean {
  const value = (accept ?? '').toLowerCase();
  return value.includes('application/json') && !value.includes('image/png');
}

export function usersRoutes(users: UsersService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/user/v1/settings/profile',
      {
        schema: {
          tags: ['User settings'],
          summary: "The caller's profile, including the three cloud-import fields",
          description:
            'driveClientId and driveApiKey are set (both) when the plan of the organization the token acts in grants DRIVE ' +
            '(packages.cloudProviders) and the service has DRIVE_CLIENT_ID and DRIVE_API_KEY; boxAppKey when the plan grants BOX and the service ' +
            'has BOX_APP_KEY; otherwise null. organizationId is the organization the token acts in. ' +
            "A signing link's guest token reads its recipient's profile, the same shape with what a guest has: id the recipient's user id " +
            "(the token's sub), name and email of the recipient row (not of any account behind it), organizationId the workflow's organization, " +
            'twoFactorEnabled false, emailVerified false, locale en, the three cloud-import fields null. Like the workflow itself, it answers 403 ' +
            "IDENTITY_NOT_VERIFIED while the row's recipient password is not entered in this session, and 404 when the row or workflow is gone.",
          response: { 200: ProfileResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => {
        const caller = callerOf(request);
        if (caller.kind === 'guest') return users.getGuestProfile(caller);
        const { user, organizationId, cloud } = await users.getProfile(caller);
        return toProfileResponse(user, organizationId, cloud);
      },
    );

    app.get(
      '/user/v1/settings/notifications',
      {
        schema: {
          tags: ['User settings'],
          summary: "The caller's mail preferences",
          description:
            'Optional mails about workflows, each true (mailed; the default) or false. Signing requests, one-time codes, ' +
            'verification, security and invitation mails cannot be turned off.',
          response: { 200: NotificationPreferences, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => users.getNotifications(userOf(request)),
    );

    app.put(
      '/user/v1/settings/notifications',
      {
        schema: {
          tags: ['User settings'],
          summary: 'Change mail preferences',
          description:
            'Any of the preferences (booleans); those left out keep their value, unknown members are ignored. Answers every preference.',
          body: NotificationPreferencesBody,
          response: { 200: NotificationPreferences, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => users.updateNotifications(userOf(request), request.body),
    );

    app.get(
      '/user/v1/settings/locale',
      {
        schema: {
          tags: ['User settings'],
          summary: "The caller's locale",
          description: 'A BCP 47 language tag; en until changed.',
          response: { 200: LocaleResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => users.getLocale(userOf(request)),
    );

    app.put(
      '/user/v1/settings/locale',
      {
        schema: {
          tags: ['User settings'],
          summary: "Change the caller's locale",
          description:
            'Any well-formed BCP 47 language tag (en, de-CH, pt-BR ...), stored and answered in canonical form (de-ch becomes de-CH); ' +
            'anything else is 400.',
          body: LocaleBody,
          response: { 200: LocaleResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => users.updateLocale(userOf(request), request.body.locale),
    );

    app.get(
      '/user/v1/settings/generateQR',
      {
        schema: {
          tags: ['User settings'],
          summary: 'Two-factor enrollment: a new authenticator secret as a QR code',
          description:
            'Creates and stores a new TOTP secret (SHA-1, 6 digits, 30-second steps) that is not active until ' +
            'PUT /user/v1/settings/security confirms a code from it. Answers image/png; with Accept: application/json ' +
            '(and not image/png) answers {otpauthUrl, qrCodeDataUrl}. Each call replaces the pending secret. ' +
            'While two-factor is on: 400 OPERATION_IS_NOT_ALLOWED (turn it off first). Business-app (CLIENT) tokens: 403. ' +
            'With the web session cookie it needs X-CSRF-Token (a GET that writes).',
          produces: ['image/png', 'application/json'],
          response: {
            200: {
              description: 'The QR code',
              content: {
                'image/png': { schema: Type.String({ format: 'binary' }) },
                'application/json': { schema: TotpEnrollmentResponse },
              },
            },
            ...errorResponses,
          },
        },
        config: { auth: 'person', writes: true },
      },
      async (request, reply) => {
        const enrollment = await users.enrollTwoFactor(userOf(request));
        reply.header('cache-control', 'no-store');
        if (wantsJson(request.headers.accept)) {
          return reply
            .type('application/json')
            .send({ otpauthUrl: enrollment.otpauthUrl, qrCodeDataUrl: await enrollment.dataUrl() });
        }
        return reply.type('image/png').send(await enrollment.png());
      },
    );

    app.put(
      '/user/v1/settings/security',
      {
        schema: {
          tags: ['User settings'],
          summary: 'Turn two-factor sign-in on or off',
          description:
            'twoFactorEnabled true: tOtp must be a current code of the secret from the last generateQR; false: a current code ' +
            "of the active secret (turning off forgets the secret); password is optional, and when sent it must be the account's " +
            '(wrong password: 400 WRONG_PASSWORD, checked before the code). A code is accepted once per 30-second step, one step of clock ' +
            'drift either way. Wrong or reused code: 400 INVALID_TOTP_SETUP; turning on without a generateQR first: 400 ' +
            'OPERATION_IS_NOT_ALLOWED. Asking for the current state changes nothing (turning off while off needs no valid code or password). ' +
            'Wrong codes and passwords count against the sign-in limits (10 per account, 100 per address in 15 minutes); once locked, ' +
            'this answers 401 ACCOUNT_TEMPORARILY_LOCKED with Retry-After, like sign-in. Business-app (CLIENT) tokens: 403.',
          body: SecurityBody,
          response: { 200: SecurityResponse, ...errorResponses },
        },
        config: { auth: 'person' },
      },
      async (request) => users.updateSecurity(userOf(request), request.body, request.ip),
    );
  };
}
