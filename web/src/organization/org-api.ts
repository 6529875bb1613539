/** The organization screens' calls and the shapes the service answers (see the OpenAPI document at /docs). */
import { ApiError } from '../shared/api.ts';
import { api, goToSignIn, loadMe } from '../workspace/session-api.ts';

export type NumberedPage<T> = { content: T[]; totalElements: number; totalPages: number; number: number; size: number };

export type Member = {
  userId: number;
  name: string;
  emailAddress: string;
  roleId: number | null;
  roleName: string | null;
  status: 'INVITED' | 'ACTIVE' | 'DECLINED';
  isOwner: boolean;
  isJoinedUser: boolean;
  hasAccount: boolean;
  usedElectronic: number;
  usedAdvanced: number;
  usedQualified: number;
  invitedAt: string | null;
  joinedAt: string | null;
};

export type Invitation = {
  organizationId: number;
  orgName: string;
  status: string;
  roleName: string | null;
  invitedBy: string | null;
  invitedByEmail?: string | null;
  expiresAt: string | null;
};

export const MODULES = [
  'USERS',
  'ROLES',
  'TEMPLATES',
  'BRANDING',
  'BILLING_DETAILS',
  'BUSINESS_APPS',
  'ORGANIZATIONS',
] as const;
export type ModuleName = (typeof MODULES)[number];
export const RIGHTS = ['canView', 'canAdd', 'canEdit', 'canDelete'] as const;
export type Right = (typeof RIGHTS)[number];
export type AccessRights = Record<Right, boolean>;

export type SignatureSettings = {
  allowSignElectronic: boolean;
  allowSignAdvanced: boolean;
  allowSignQualified: boolean;
  allowDocSend: boolean;
  allowDocUseTemplates: boolean;
  quotaElectronic: number;
  quotaAdvanced: number;
  quotaQualified: number;
};

export type Role = {
  id: number;
  name: string;
  description: string;
  status: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  signatureSettings: SignatureSettings;
  permissions: { moduleName: ModuleName; accessRights: AccessRights }[];
  membersCount: number;
  createdAt: string;
};
export type RoleBody = Omit<Role, 'id' | 'membersCount' | 'createdAt'>;
export type AvailableRole = { roleId: number; roleName: string };

export type Package = {
  id: number;
  name: string;
  description: string;
  credits: number;
  creditsPrice: number;
  discount: number;
  preset: boolean;
  duration: number;
  servicePlan: string;
  status: string;
  currencySymbol: string;
};
export type Billing = {
  orgId: number;
  package: Package;
  credits: number;
  packageStartedAt: string;
  packageExpiresAt: string;
  expired: boolean;
  servicePlanActive: boolean;
  /** BILLING_SELF_SERVICE: false, only free packages (creditsPrice 0) are chosen and renewed here; the operator grants priced ones. */
  selfService: boolean;
};

export type Branding = {
  primaryColor: string | null;
  senderName: string | null;
  logoUrl: string | null;
  isDefault: boolean;
  updatedAt: string | null;
};

export const MAIL_PROVIDERS = ['SMTP', 'EMAIL_API', 'CLOUD_MAIL', 'OAUTH2_MAIL'] as const;
export type MailProvider = (typeof MAIL_PROVIDERS)[number];
export type EmailSettings = {
  licenseSmtpEnabled: boolean;
  planAllowCustomSmtp: boolean;
  isOwner: boolean;
  emailMode: 'GLOBAL' | 'ORG_MANAGED';
  source: 'PLAN_CONNECTOR' | 'CUSTOM' | null;
  provider: MailProvider | null;
  configurations: Record<string, string>;
  allowedConnectors: { id: number; name: string; provider: MailProvider }[];
};
export type MailTestResult = {
  success: boolean;
  provider: MailProvider;
  step: 'CONFIG' | 'CONNECT' | 'AUTH' | 'TOKEN' | 'SEND' | null;
  message: string;
};
export type MailDelivery = {
  id: number;
  kind: string;
  to: string;
  subject: string;
  workflowId: number | null;
  provider: MailProvider;
  status: 'PENDING' | 'SENT' | 'FAILED';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
};

export type BusinessApp = {
  id: number;
  clientId: string;
  appName: string;
  callbackUrl: string;
  status: boolean;
  webhooksEnabled: boolean;
  createdAt: string;
  /** The first failed delivery of the current run of failures; null while the callback answers. */
  callbackFailingSince: string | null;
  /** Set while webhooks are paused (the callback failed for 24 hours in a row): deliveries are held until an edit or a redelivery resumes them. */
  callbackPausedAt: string | null;
};
export type RegisteredApp = {
  id: number;
  clientId: string;
  appName: string;
  callbackUrl: string;
  status: boolean;
  clientSecret: string;
  webhookSecret: string;
};
export type RotatedSecrets = {
  id: number;
  clientId: string;
  appName: string;
  callbackUrl: string;
  status: boolean;
  clientSecret?: string;
  webhookSecret?: string;
};

export type WebhookDelivery = {
  id: number;
  appId: number;
  workflowId: number;
  eventId: string;
  eventType: string;
  status: 'PENDING' | 'DELIVERED' | 'DEAD' | 'PAUSED';
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  deadAt: string | null;
  replayOfId: number | null;
  createdAt: string;
};
export type WebhookDeliveryDetail = WebhookDelivery & { payload: unknown };

/** A query string of the defined members (arrays repeat the key). */
export function query(
  values: Record<string, string | number | boolean | null | undefined | (string | number)[]>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const orgApi = {
  members: (q: { page: number; size: number; searchValue?: string; status?: string }) =>
    api.get<NumberedPage<Member>>(`/organization/v1/users${query(q)}`),
  invite: (body: { name: string; emailAddress: string; role: number | null }) =>
    api.post<Member>('/organization/v1/user', body),
  changeRole: (userId: number, roleId: number | null) =>
    api.put<Member>('/organization/v1/user_role', { userId, roleId }),
  renewQuota: (userId: number) => api.put<Member>('/organization/v1/users/renew', { userId }),
  removeMembers: (ids: number[], isJoinedUser: boolean) =>
    api.delete<void>(`/organization/v1/user${query({ ids, isJoinedUser })}`),
  transferOwnership: (orgName: string, userEmail: string) =>
    api.put<{ organizationId: number; orgName: string; ownerUserId: number; ownerEmail: string }>(
      '/organization/v1/change/ownership',
      { orgName, userEmail },
    ),
  myInvitations: () => api.get<Invitation[]>('/organization/v1/invitations'),
  // Organization names are not unique: the id picks the one meant (the service refuses an ambiguous name without it).
  answerInvitation: (
    invitation: Pick<Invitation, 'orgName' | 'organizationId'>,
    inviteStatus: 'ACCEPTED' | 'DECLINED',
  ) =>
    api.put<Invitation[]>('/organization/v1/invite', {
      orgNames: [invitation.orgName],
      organizationIds: [invitation.organizationId],
      inviteStatus,
    }),

  roles: (q: { page: number; size: number; searchValue?: string; status?: string }) =>
    api.get<NumberedPage<Role>>(`/user/v1/roles${query(q)}`),
  availableRoles: () => api.get<AvailableRole[]>('/user/v1/roles/available'),
  createRole: (body: RoleBody) => api.post<Role>('/user/v1/roles', body),
  updateRole: (id: number, body: RoleBody) => api.put<Role>(`/user/v1/roles/${id}`, body),
  deleteRoles: (ids: number[]) => api.delete<void>(`/user/v1/roles${query({ roleId: ids })}`),

  billing: () => api.get<Billing>('/organization/v1/billing'),
  packages: () => api.get<{ content: Package[]; totalElements: number }>('/auth/v1/packages?size=100'),
  changePackage: (orgId: number, pkgId: number) => api.put<Billing>('/auth/v1/package/update', { orgId, pkgId }),
  renewPackage: (orgId: number) => api.put<Billing>(`/auth/v1/package/renew${query({ orgId })}`),

  branding: () => api.get<Branding>('/organization/v1/branding'),
  saveBranding: (
    settings: { primaryColor: string | null; senderName: string | null; removeLogo?: boolean },
    logo: File | null,
  ) => {
    const form = new FormData();
    form.append('settingsJson', JSON.stringify(settings));
    if (logo) form.append('logo', logo, logo.name);
    return putForm('/organization/v1/branding', form);
  },
  resetBranding: () => api.get<Branding>('/organization/v1/branding-reset'),

  emailSettings: () => api.get<EmailSettings>('/organization/v1/email-settings'),
  saveEmailSettings: (body: {
    emailMode: 'GLOBAL' | 'ORG_MANAGED';
    source?: 'CUSTOM';
    provider?: MailProvider;
    configurations?: Record<string, string>;
  }) => api.put<EmailSettings>('/organization/v1/email-settings', body),
  testEmailSettings: (body: {
    provider: MailProvider;
    configurations: Record<string, string>;
    testRecipient: string;
  }) => api.post<MailTestResult>('/organization/v1/email-settings/test', body),
  mailDeliveries: (q: { page: number; size: number; status?: string }) =>
    api.get<NumberedPage<MailDelivery>>(`/organization/v1/email-deliveries${query(q)}`),

  apps: () => api.get<BusinessApp[]>('/organization/v1/apps'),
  registerApp: (body: { clientId: string; appName: string; callbackUrl: string; status: boolean }) =>
    api.post<RegisteredApp>('/organization/v1/apps', body),
  setAppStatus: (appId: number, status: boolean) =>
    api.put<BusinessApp>(`/organization/v1/apps/${appId}/status`, { status }),
  /** Any update, even `{}`, resumes the app's paused webhooks. */
  updateApp: (appId: number, body: { appName?: string; callbackUrl?: string }) =>
    api.put<BusinessApp>(`/organization/v1/apps/${appId}`, body),
  rotateSecrets: (appId: number, secret: 'CLIENT' | 'WEBHOOK' | 'BOTH') =>
    api.post<RotatedSecrets>(`/organization/v1/apps/${appId}/secrets`, { secret }),

  webhookDeliveries: (q: { page: number; size: number; status?: string; appId?: number }) =>
    api.get<NumberedPage<WebhookDelivery>>(`/organization/v1/webhook-deliveries${query(q)}`),
  webhookDelivery: (id: number) => api.get<WebhookDeliveryDetail>(`/organization/v1/webhook-deliveries/${id}`),
  replayDelivery: (id: number) => api.post<WebhookDelivery>(`/organization/v1/webhook-deliveries/${id}/replay`),
};

/**
 * A multipart PUT (branding is the one: the workspace client's upload() posts). Same rules as the workspace
 * client: the session cookie, the CSRF token, a lost session sends the browser to sign in.
 */
async function putForm(path: string, form: FormData): Promise<void> {
  const me = await loadMe();
  const response = await fetch(path, {
    method: 'PUT',
    body: form,
    headers: { accept: 'application/json', 'x-csrf-token': me.csrfToken },
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (response.ok) return;
  let body: any = null;
  try {
    body = await response.json();
  } catch {
    // not JSON
  }
  const requestId = body?.requestId ?? response.headers.get('x-request-id') ?? undefined;
  const error =
    body && typeof body.message === 'string'
      ? new ApiError(response.status, body.message, body.errorDescription ?? body.message, body.responseBody, requestId)
      : body && typeof body.code === 'string'
        ? new ApiError(response.status, body.code, body.error ?? body.code, undefined, requestId)
        : new ApiError(
            response.status,
            `HTTP_${response.status}`,
            response.statusText || 'Request failed',
            undefined,
            requestId,
          );
  if (error.status === 401 && (error.code === 'SESSION_EXPIRED' || error.code === 'UNAUTHORIZED')) goToSignIn();
  throw error;
}
