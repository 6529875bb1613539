import { ACCESS_RIGHTS, ORGANIZATION_MODULES, toModuleGrants } from '../../http/authorize.ts';

/** What a role grants: its module rights and its signature settings, as stored (jsonb). */
export type RoleGrants = { permissions: unknown; signatureSettings: unknown };

const SIGNATURE_PERMISSIONS = [
  'allowSignElectronic',
  'allowSignAdvanced',
  'allowSignQualified',
  'allowDocSend',
  'allowDocUseTemplates',
] as const;
const QUOTAS = ['quotaElectronic', 'quotaAdvanced', 'quotaQualified'] as const;

/**
 * What `role` grants beyond `ceiling` (null: a ceiling that grants nothing), each as a short name: a module right
 * (`BILLING_DETAILS.canView`), a signature permission (`allowSignQualified`) or a quota above the ceiling's
 * (`quotaElectronic > 50`). Empty when `role` is within `ceiling`.
 */
export function grantsBeyond(role: RoleGrants, ceiling: RoleGrants | null): string[] {
  const granted = toModuleGrants(role.permissions);
  const held = toModuleGrants(ceiling?.permissions);
  const beyond: string[] = [];
  for (const module of ORGANIZATION_MODULES) {
    for (const right of ACCESS_RIGHTS) {
      if (granted[module]?.[right] === true && held[module]?.[right] !== true) beyond.push(`${module}.${right}`);
    }
  }
  const settings = settingsOf(role.signatureSettings);
  const heldSettings = settingsOf(ceiling?.signatureSettings);
  for (const name of SIGNATURE_PERMISSIONS) {
    if (settings[name] === true && heldSettings[name] !== true) beyond.push(name);
  }
  for (const name of QUOTAS) {
    const limit = quotaOf(heldSettings[name]);
    if (quotaOf(settings[name]) > limit) beyond.push(`${name} > ${limit}`);
  }
  return beyond;
}

function settingsOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** A stored quota; anything that is not a non-negative number counts as 0. */
function quotaOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
