import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { userOf, type UserCaller } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import { wantsHtml } from '../auth/verification-page.ts';
import { INVITATION_DAYS } from './invitations.ts';
import { INVITATIONS_OF_ADDRESS, INVITATIONS_PER_ORGANIZATION } from '../../platform/limits/attempts.ts';
import {
  invitationDonePage,
  invitationErrorPage,
  invitationFormPage,
  invitationPageHeaders,
} from './invitation-page.ts';
import type { OrganizationService } from './organizations.service.ts';
import {
  InvitationResponse,
  InviteBody,
  InviteCodeParams,
  InviteDetails,
  InviteResponseBody,
  InviteSignupBody,
  InviteSignupResponse,
  MemberPage,
  MemberParams,
  MemberResponse,
  MemberRoleBody,
  MembersQuery,
  MemberUpdateBody,
  OwnershipBody,
  OwnershipResponse,
  RemoveQuery,
  RenewBody,
  toMemberResponse,
} from './organizations.schemas.ts';

const SCOPE = "Members of the caller's organization only: anyone else's user id is 404.";
const USERS_RIGHT = (right: string) =>
  `The owner, or a member whose role grants ${right} on the USERS module (else 403).`;
const NO_APPS = 'Business-app (CLIENT) tokens get 403: organization administration is done by people.';

/** Members, invitations and ownership are managed by people, never by a partner backend acting for them. */
function personOf(request: FastifyRequest): UserCaller {
  const caller = userOf(request);
  if (caller.appId !== undefined)
    throw new AppError('USER_NOT_HAVE_ACCESS', 'Business-app tokens cannot manage organization members');
  return caller;
}

export function organizationRoutes(organizations: OrganizationService, publicUrl: string): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Organization: users'];
    const conflict = { 409: Type.Ref('ErrorResponse') };

    app.get(
      '/organization/v1/users',
      {
        schema: {
          tags,
          summary: 'Members, one page',
          description: `The owner first, then in the order they were invited; invitations (INVITED, DECLINED) included. ${USERS_RIGHT('canView')} ${NO_APPS}`,
          querystring: MembersQuery,
          response: { 200: MemberPage, ...errorResponses },
        },
        config: { auth: { module: 'USERS', right: 'canView' } },
      },
      async (request) => organizations.listMembers(personOf(request), request.query),
    );

    app.get(
      '/organization/v1/user/:userId',
      {
        schema: {
          tags,
          summary: 'One member',
          description: `${SCOPE} ${USERS_RIGHT('canView')} ${NO_APPS}`,
          params: MemberParams,
          response: { 200: MemberResponse, ...errorResponses },
        },
        config: { auth: { module: 'USERS', right: 'canView' } },
      },
      async (request) => toMemberResponse(await organizations.getMember(personOf(request), request.params.userId)),
    );

    app.post(
      '/organization/v1/user',
      {
        schema: {
          tags,
          summary: 'Invite a member',
          description:
            `Owner only. Mails the invitation (always through the platform's own mail: accepting it proves the address): a registered user accepts in the app (PUT /organization/v1/invite); ` +
            `someone without an account gets the link $PUBLIC_URL/invite/<code> (${INVITATION_DAYS} days), which signs them up straight into the organization. ` +
            `An ACTIVE member or a pending invitation is 409 MEMBER_ALREADY_EXISTS; a declined or expired invitation is renewed. The inviter's address must be verified (403 EMAIL_NOT_VERIFIED). ` +
            `At most ${INVITATIONS_PER_ORGANIZATION.max} invitations an hour per organization and ${INVITATIONS_OF_ADDRESS.max} a day to one address from it (a withdrawn and renewed one counts again): ` +
            `beyond, 429 INVITATION_LIMIT_REACHED with Retry-After. Answers 200 with the member (status INVITED, hasAccount false: whether the address holds an account shows once they join). ${NO_APPS}`,
          body: InviteBody,
          response: { 200: MemberResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { owner: true } },
      },
      async (request) => toMemberResponse(await organizations.invite(personOf(request), request.body)),
    );

    app.put(
      '/organization/v1/user/:userId',
      {
        schema: {
          tags,
          summary: 'Update a member',
          description: `Owner only. ${SCOPE} name (as the organization knows the member) and role, each kept when omitted; role null removes it; the owner's role cannot be set (400). ${NO_APPS}`,
          params: MemberParams,
          body: MemberUpdateBody,
          response: { 200: MemberResponse, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) =>
        toMemberResponse(await organizations.updateMember(personOf(request), request.params.userId, request.body)),
    );

    app.delete(
      '/organization/v1/user',
      {
        schema: {
          tags,
          summary: 'Remove members or withdraw invitations',
          description: `Owner only; all or nothing. isJoinedUser true (default) removes ACTIVE members, false withdraws invitations; an id of the other kind or of nobody here is 404, the owner 400 OWNER_NOT_REMOVABLE. A removed member's tokens stop working at once; the account goes on in another organization of theirs. Answers 204. ${NO_APPS}`,
          querystring: RemoveQuery,
          response: { 204: Type.Null(), ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request, reply) => {
        await organizations.removeMembers(personOf(request), request.query.ids, request.query.isJoinedUser);
        return reply.status(204).send(null);
      },
    );

    app.put(
      '/organization/v1/user_role',
      {
        schema: {
          tags,
          summary: "Change a member's role",
          description: `Owner only (SPEC.md: updating members is the owner's; a USERS right does not give it). ${SCOPE} roleId null removes the role; the owner's role does not apply (400). ${NO_APPS}`,
          body: MemberRoleBody,
          response: { 200: MemberResponse, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) =>
        toMemberResponse(await organizations.changeRole(personOf(request), request.body.userId, request.body.roleId)),
    );

    app.put(
      '/organization/v1/users/renew',
      {
        schema: {
          tags,
          summary: "Renew a member's signature quota",
          description: `Owner only (SPEC.md: updating members is the owner's; a USERS right does not give it). ${SCOPE} Sets the member's used counts of the qualifiers named (all three by default) back to 0. ${NO_APPS}`,
          body: RenewBody,
          response: { 200: MemberResponse, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) => toMemberResponse(await organizations.renewQuota(personOf(request), request.body)),
    );

    app.get(
      '/organization/v1/invitations',
      {
        schema: {
          tags,
          summary: "The caller's pending invitations",
          description: `Invitations addressed to the signed-in user, from any organization. ${NO_APPS}`,
          response: { 200: Type.Array(InvitationResponse), ...errorResponses },
        },
        config: { auth: 'person' },
      },
      async (request) => organizations.myInvitations(personOf(request)),
    );

    app.put(
      '/organization/v1/invite',
      {
        schema: {
          tags,
          summary: 'Accept or decline invitations',
          description:
            'Called by the invited user. Each name must match a pending invitation of the caller (404, all or nothing); an expired one is 400 LINK_EXPIRED. ' +
            'Organization names are not unique: a name that several pending invitations bear is 400 INVITATION_NAME_AMBIGUOUS (responseBody.candidates: each ' +
            "organizationId with its inviter's name and address) unless organizationIds picks the ones meant; nothing is answered then. " +
            'Accepting needs a confirmed email address (403 EMAIL_NOT_VERIFIED) and makes the (first) organization the one the account acts in: sign in again to act in it. ' +
            `Answers the invitations with their new status. ${NO_APPS}`,
          body: InviteResponseBody,
          response: { 200: Type.Array(InvitationResponse), ...errorResponses },
        },
        config: { auth: 'person' },
      },
      async (request) => organizations.answerInvitations(personOf(request), request.body),
    );

    app.put(
      '/organization/v1/change/ownership',
      {
        schema: {
          tags,
          summary: 'Transfer the ownership',
          description: `Owner only. orgName is the caller's organization and userEmail an ACTIVE registered member of it (404 otherwise). The new owner's role is cleared; the former owner stays a member without a role. The new owner is mailed. ${NO_APPS}`,
          body: OwnershipBody,
          response: { 200: OwnershipResponse, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) => organizations.transferOwnership(personOf(request), request.body),
    );

    // The mailed link. A browser gets a form; other clients JSON. The form posts application/x-www-form-urlencoded.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    const pageOrJson = { 'text/html': { schema: Type.String() } };

    app.get(
      '/invite/:code',
      {
        schema: {
          tags,
          summary: 'The mailed invitation link',
          security: [],
          description:
            'Public. JSON {orgName, name, emailAddress, expiresAt}, or for a browser (Accept naming text/html) a sign-up form. A used, withdrawn, replaced, unknown or expired code is 400 LINK_EXPIRED.',
          params: InviteCodeParams,
          produces: ['application/json', 'text/html'],
          response: {
            200: {
              description: 'The invitation',
              content: { 'application/json': { schema: InviteDetails }, ...pageOrJson },
            },
            400: {
              description: 'Unusable link',
              content: { 'application/json': { schema: Type.Ref('ErrorResponse') }, ...pageOrJson },
            },
          },
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        if (!wantsHtml(request.headers.accept))
          return reply.type('application/json').send(await organizations.invitationDetails(request.params.code));
        return htmlOrError(reply, async () =>
          invitationFormPage(await organizations.invitationDetails(request.params.code)),
        );
      },
    );

    app.post(
      '/invite/:code',
      {
        schema: {
          tags,
          summary: 'Sign up through an invitation',
          security: [],
          description:
            'Public. {name?, password} as JSON or as the form: creates the account for the invited address (already confirmed: the code came by mail to it), ' +
            'with an organization of its own as at sign-up, and makes it an ACTIVE member of the inviting organization, which it acts in. Works even when SIGNUP_ENABLED is false. ' +
            '201 {userId, organizationId} (a browser gets a page). 400 LINK_EXPIRED for an unusable code; 409 EMAIL_ALREADY_REGISTERED when the address has an account (accept in the app).',
          params: InviteCodeParams,
          body: InviteSignupBody,
          response: { 201: InviteSignupResponse, 400: Type.Ref('ErrorResponse'), 409: Type.Ref('ErrorResponse') },
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const signUp = () => organizations.signUpWithInvitation(request.params.code, request.body);
        if (!wantsHtml(request.headers.accept)) return reply.status(201).send(await signUp());
        const details = await organizations.invitationDetails(request.params.code).catch(() => null);
        return htmlOrError(
          reply,
          async () => {
            await signUp();
            return invitationDonePage(details?.orgName ?? 'the organization', publicUrl);
          },
          201,
        );
      },
    );

    async function htmlOrError(reply: import('fastify').FastifyReply, render: () => Promise<string>, status = 200) {
      try {
        const html = await render();
        return reply.status(status).headers(invitationPageHeaders).type('text/html; charset=utf-8').send(html);
      } catch (failure) {
        if (!(failure instanceof AppError) || failure.status >= 500) throw failure;
        return reply
          .status(failure.status)
          .headers(invitationPageHeaders)
          .type('text/html; charset=utf-8')
          .send(invitationErrorPage(failure.message));
      }
    }
  };
}
