/** The profile screens' calls: settings, two-factor sign-in, passkeys (WebAuthn) and the signature library. */
import { fromBase64url, toBase64url } from '../signin/other-methods-api.ts';
import { api } from '../workspace/session-api.ts';

export type Profile = {
  id: number;
  name: string;
  email: string;
  organizationId: number;
  twoFactorEnabled: boolean;
  locale: string;
  driveClientId: string | null;
  driveApiKey: string | null;
  boxAppKey: string | null;
};

export const NOTIFICATIONS = [
  'workflowCompleted',
  'workflowDeclined',
  'workflowDelegated',
  'workflowVoided',
  'commentAdded',
  'documentOpened',
] as const;
export type NotificationName = (typeof NOTIFICATIONS)[number];
export type Notifications = Record<NotificationName, boolean>;

export type Passkey = {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  deviceType: string;
  backedUp: boolean;
};

export const ASSET_KINDS = ['SIGNATURE', 'INITIALS', 'STAMP'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];
export type CaptureMode = 'DRAW' | 'TYPE' | 'UPLOAD';
export const SIGNATURE_FONTS = ['DANCING_SCRIPT', 'LIBERATION_SANS', 'LIBERATION_SANS_ITALIC'] as const;
export type SignatureFont = (typeof SIGNATURE_FONTS)[number];
export type LibraryEntry = {
  id: number;
  kind: AssetKind;
  name: string;
  image: string;
  captureMode: CaptureMode;
  isDefault: boolean;
  createdAt: string;
};
export type NewLibraryEntry = {
  kind: AssetKind;
  name: string;
  captureMode: CaptureMode;
  image?: string;
  font?: SignatureFont;
};

type CreationOptionsJSON = {
  rp: { name: string; id: string };
  user: { id: string; name: string; displayName: string };
  challenge: string;
  pubKeyCredParams: { alg: number; type: 'public-key' }[];
  timeout: number;
  excludeCredentials: { id: string; type: 'public-key'; transports?: string[] }[];
  authenticatorSelection: { residentKey: string; requireResidentKey: boolean; userVerification: string };
  attestation: string;
  extensions: { credProps: boolean };
};

export const profileApi = {
  profile: () => api.get<Profile>('/user/v1/settings/profile'),
  setLocale: (locale: string) => api.put<{ locale: string }>('/user/v1/settings/locale', { locale }),
  notifications: () => api.get<Notifications>('/user/v1/settings/notifications'),
  setNotifications: (body: Partial<Notifications>) => api.put<Notifications>('/user/v1/settings/notifications', body),

  /** A new (not yet active) authenticator secret: its otpauth URI and the same as a PNG QR code. */
  startTwoFactor: () => api.get<{ otpauthUrl: string; qrCodeDataUrl: string }>('/user/v1/settings/generateQR'),
  setTwoFactor: (body: { twoFactorEnabled: boolean; tOtp: string; password?: string }) =>
    api.put<{ twoFactorEnabled: boolean }>('/user/v1/settings/security', body),

  passkeys: () => api.get<Passkey[]>('/user/v1/settings/passkeys'),
  deletePasskey: (id: number) => api.delete<void>(`/user/v1/settings/passkeys/${id}`),
  /**
   * The whole registration: creation options, the browser's passkey prompt, then the attestation stored under
   * `name`. A prompt the person cancels (or that times out) throws a DOMException named NotAllowedError.
   */
  async registerPasskey(name: string): Promise<Passkey> {
    const options = await api.post<CreationOptionsJSON>('/user/v1/settings/passkeys/options', {});
    const credential = (await navigator.credentials.create({
      publicKey: toCreationOptions(options),
    })) as PublicKeyCredential | null;
    if (!credential) throw new DOMException('No passkey was created', 'NotAllowedError');
    return api.post<Passkey>('/user/v1/settings/passkeys', {
      ...toRegistrationJSON(credential),
      ...(name ? { name } : {}),
    });
  },

  library: () => api.get<LibraryEntry[]>('/user/v1/settings/signatures/library'),
  addEntry: (body: NewLibraryEntry) => api.post<LibraryEntry>('/user/v1/settings/signatures/library', body),
  makeDefault: (id: number) => api.put<LibraryEntry>(`/user/v1/settings/signatures/library/${id}/default`),
  deleteEntry: (id: number) => api.delete<void>(`/user/v1/settings/signatures/library/${id}`),
};

/** The JSON creation options as navigator.credentials.create() takes them (base64url members become bytes). */
function toCreationOptions(options: CreationOptionsJSON): PublicKeyCredentialCreationOptions {
  return {
    rp: options.rp,
    user: { id: fromBase64url(options.user.id), name: options.user.name, displayName: options.user.displayName },
    challenge: fromBase64url(options.challenge),
    pubKeyCredParams: options.pubKeyCredParams,
    timeout: options.timeout,
    excludeCredentials: options.excludeCredentials.map((c) => ({
      id: fromBase64url(c.id),
      type: c.type,
      ...(c.transports ? { transports: c.transports as AuthenticatorTransport[] } : {}),
    })),
    authenticatorSelection: {
      residentKey: options.authenticatorSelection.residentKey as ResidentKeyRequirement,
      requireResidentKey: options.authenticatorSelection.requireResidentKey,
      userVerification: options.authenticatorSelection.userVerification as UserVerificationRequirement,
    },
    attestation: options.attestation as AttestationConveyancePreference,
    extensions: options.extensions,
  };
}

/** The attestation as RegistrationResponseJSON (bytes become base64url), what the service stores. */
function toRegistrationJSON(credential: PublicKeyCredential) {
  const response = credential.response as AuthenticatorAttestationResponse;
  const transports = typeof response.getTransports === 'function' ? response.getTransports() : undefined;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: 'public-key' as const,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      attestationObject: toBase64url(response.attestationObject),
      ...(transports ? { transports } : {}),
    },
    clientExtensionResults: credential.getClientExtensionResults() as Record<string, unknown>,
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
  };
}
