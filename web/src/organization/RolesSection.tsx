/** Roles: the list, and a role's name, status, signing rights and quotas, and its module permissions (checkboxes). */
import { useState } from 'react';
import {
  ApiErrorText,
  FormDialog,
  Pager,
  SearchForm,
  StatusLine,
  TextField,
  fieldIssues,
  useResource,
} from './kit.tsx';
import { ConfirmAction } from './MembersSection.tsx';
import { orgText as text } from '../i18n/organization/index.ts';
import {
  MODULES,
  RIGHTS,
  orgApi,
  type AccessRights,
  type ModuleName,
  type Role,
  type RoleBody,
  type SignatureSettings,
} from './org-api.ts';
import { Skeleton } from '../shared/Skeleton.tsx';

const PAGE_SIZE = 20;

const NEW_ROLE: RoleBody = {
  name: '',
  description: '',
  status: 'ACTIVE',
  signatureSettings: {
    allowSignElectronic: true,
    allowSignAdvanced: false,
    allowSignQualified: false,
    allowDocSend: true,
    allowDocUseTemplates: true,
    quotaElectronic: 100,
    quotaAdvanced: 0,
    quotaQualified: 0,
  },
  permissions: [
    { moduleName: 'TEMPLATES', accessRights: { canView: true, canAdd: false, canEdit: false, canDelete: false } },
  ],
};

export function RolesSection() {
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const roles = useResource(
    () => orgApi.roles({ page, size: PAGE_SIZE, searchValue: search || undefined }),
    [page, search],
  );
  const [editing, setEditing] = useState<{ role: Role | null } | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function onSearch(term: string) {
    setPage(0);
    setSearch(term);
  }

  return (
    <section aria-labelledby="st-section-title">
      <div className="ws-page-head">
        <h2 id="st-section-title">{text.sectionTitles.roles}</h2>
        <button type="button" className="ws-button ws-button--primary" onClick={() => setEditing({ role: null })}>
          {text.newRole}
        </button>
      </div>
      <SearchForm id="st-role-search" label={text.searchRoles} buttonLabel={text.search} toolbar onSearch={onSearch} />
      <StatusLine message={done} />
      {roles.error ? <ApiErrorText error={roles.error} /> : null}
      {roles.loading && !roles.data && <Skeleton shape="rows" label={text.loading} withHeading={false} />}
      {roles.data && (
        <>
          <div className="ws-table-wrap">
            <table className="ws-table">
              <caption>{text.rolesCaption(roles.data.totalElements)}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.name}</th>
                  <th scope="col">{text.description}</th>
                  <th scope="col">{text.status}</th>
                  <th scope="col">{text.permissions}</th>
                  <th scope="col">{text.membersCount}</th>
                  <th scope="col">{text.actions}</th>
                </tr>
              </thead>
              <tbody>
                {roles.data.content.map((role) => (
                  <tr key={role.id}>
                    <th scope="row">{role.name}</th>
                    <td className="st-wrap">{role.description}</td>
                    <td>{text.roleStatus[role.status]}</td>
                    <td className="st-wrap">
                      {role.permissions.length === 0
                        ? text.noPermissions
                        : role.permissions.map((p) => text.modules[p.moduleName]).join(', ')}
                    </td>
                    <td className="st-numbers">{role.membersCount}</td>
                    <td>
                      <div className="st-row-actions">
                        <button
                          type="button"
                          className="ws-button ws-button--small"
                          aria-label={text.editRoleOf(role.name)}
                          onClick={() => setEditing({ role })}
                        >
                          {text.edit}
                        </button>
                        <button
                          type="button"
                          className="ws-button ws-button--small ws-button--quiet"
                          aria-label={text.deleteRoleOf(role.name)}
                          onClick={() => setDeleting(role)}
                        >
                          {text.delete}
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {roles.data.content.length === 0 && <p className="ws-empty">{search ? text.noRolesMatch : text.noRoles}</p>}
          <Pager
            page={page}
            size={PAGE_SIZE}
            total={roles.data.totalElements}
            onPage={setPage}
            label={text.rolesPages}
          />
        </>
      )}
      {editing && (
        <RoleEditor
          role={editing.role}
          onClose={() => setEditing(null)}
          onDone={(saved) => {
            setEditing(null);
            setDone(editing.role ? text.roleSaved(saved.name) : text.roleCreated(saved.name));
            roles.reload();
          }}
        />
      )}
      {deleting && (
        <ConfirmAction
          title={text.deleteRoleTitle(deleting.name)}
          description={text.deleteRoleText}
          submitLabel={text.delete}
          run={() => orgApi.deleteRoles([deleting.id])}
          onClose={() => setDeleting(null)}
          onDone={() => {
            setDeleting(null);
            setDone(text.roleDeleted(deleting.name));
            roles.reload();
          }}
        />
      )}
    </section>
  );
}

type Grants = Record<ModuleName, AccessRights>;

function grantsOf(permissions: RoleBody['permissions']): Grants {
  const none = { canView: false, canAdd: false, canEdit: false, canDelete: false };
  const grants = Object.fromEntries(MODULES.map((m) => [m, { ...none }])) as Grants;
  for (const p of permissions) if (p.moduleName in grants) grants[p.moduleName] = { ...none, ...p.accessRights };
  return grants;
}

/** Every right spelled out: the API counts an omitted right as granted, so the body never leaves one out. */
function permissionsOf(grants: Grants): RoleBody['permissions'] {
  return MODULES.filter((m) => RIGHTS.some((r) => grants[m][r])).map((m) => ({
    moduleName: m,
    accessRights: { ...grants[m] },
  }));
}

function RoleEditor({
  role,
  onClose,
  onDone,
}: {
  role: Role | null;
  onClose: () => void;
  onDone: (role: Role) => void;
}) {
  const start = role ?? NEW_ROLE;
  const [name, setName] = useState(start.name);
  const [description, setDescription] = useState(start.description);
  const [status, setStatus] = useState(start.status);
  const [settings, setSettings] = useState<SignatureSettings>({ ...start.signatureSettings });
  const [grants, setGrants] = useState<Grants>(() => grantsOf(start.permissions));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const issues = { ...fieldIssues(error), ...local };

  const flag = (key: keyof SignatureSettings) => (value: boolean) => setSettings((s) => ({ ...s, [key]: value }));
  const quota = (key: keyof SignatureSettings) => (value: string) =>
    setSettings((s) => ({ ...s, [key]: value === '' ? 0 : Math.max(0, Math.floor(Number(value)) || 0) }));
  const toggle = (module: ModuleName, right: (typeof RIGHTS)[number], value: boolean) =>
    setGrants((g) => {
      const next = { ...g[module], [right]: value };
      // Adding, editing or deleting without seeing makes no sense: those imply view, and no view clears them.
      if (right !== 'canView' && value) next.canView = true;
      if (right === 'canView' && !value) Object.assign(next, { canAdd: false, canEdit: false, canDelete: false });
      return { ...g, [module]: next };
    });

  async function submit() {
    if (!name.trim()) return setLocal({ name: text.roleNameRequired });
    setLocal({});
    setBusy(true);
    setError(null);
    const body: RoleBody = {
      name: name.trim(),
      description: description.trim(),
      status,
      signatureSettings: settings,
      permissions: permissionsOf(grants),
    };
    try {
      onDone(role ? await orgApi.updateRole(role.id, body) : await orgApi.createRole(body));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open
      wide
      title={role ? text.editRoleTitle(role.name) : text.newRoleTitle}
      submitLabel={role ? text.saveRoleChanges : text.createRole}
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={text.name}
        value={name}
        onChange={(v) => {
          setName(v);
          setLocal({});
        }}
        required
        maxLength={50}
        error={issues.name}
      />
      <div className="st-field">
        <label htmlFor="st-role-description" className="st-label">
          {text.description}
        </label>
        <textarea
          id="st-role-description"
          value={description}
          maxLength={500}
          rows={2}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <div className="st-field">
        <label htmlFor="st-role-status" className="st-label">
          {text.status}
        </label>
        <select
          id="st-role-status"
          value={status}
          onChange={(e) => setStatus(e.target.value as Role['status'])}
          aria-describedby="st-role-status-hint"
        >
          <option value="ACTIVE">{text.roleStatus.ACTIVE}</option>
          <option value="INACTIVE">{text.roleStatus.INACTIVE}</option>
          <option value="DISABLED">{text.roleStatus.DISABLED}</option>
        </select>
        <p id="st-role-status-hint" className="st-hint">
          {text.roleStatusHint}
        </p>
      </div>

      <fieldset className="st-fieldset">
        <legend>{text.signingRights}</legend>
        <Check label={text.allowDocSend} checked={settings.allowDocSend} onChange={flag('allowDocSend')} />
        <Check
          label={text.allowDocUseTemplates}
          checked={settings.allowDocUseTemplates}
          onChange={flag('allowDocUseTemplates')}
        />
        <div className="st-quota-grid">
          <Check
            label={text.allowSignElectronic}
            checked={settings.allowSignElectronic}
            onChange={flag('allowSignElectronic')}
          />
          <TextField
            label={text.quotaElectronic}
            type="number"
            inputMode="numeric"
            value={String(settings.quotaElectronic)}
            onChange={quota('quotaElectronic')}
            error={issues.signatureSettings}
          />
          <Check
            label={text.allowSignAdvanced}
            checked={settings.allowSignAdvanced}
            onChange={flag('allowSignAdvanced')}
          />
          <TextField
            label={text.quotaAdvanced}
            type="number"
            inputMode="numeric"
            value={String(settings.quotaAdvanced)}
            onChange={quota('quotaAdvanced')}
          />
          <Check
            label={text.allowSignQualified}
            checked={settings.allowSignQualified}
            onChange={flag('allowSignQualified')}
          />
          <TextField
            label={text.quotaQualified}
            type="number"
            inputMode="numeric"
            value={String(settings.quotaQualified)}
            onChange={quota('quotaQualified')}
          />
        </div>
      </fieldset>

      <fieldset className="st-fieldset">
        <legend>{text.permissions}</legend>
        <p className="st-hint">{text.permissionsHint}</p>
        <div className="ws-table-wrap">
          <table className="ws-table st-permissions">
            <thead>
              <tr>
                <th scope="col">{text.module}</th>
                {RIGHTS.map((r) => (
                  <th scope="col" key={r}>
                    {text.rights[r]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {MODULES.map((m) => (
                <tr key={m}>
                  <th scope="row">{text.modules[m]}</th>
                  {RIGHTS.map((r) => (
                    <td key={r}>
                      <label className="st-check-cell">
                        <input
                          type="checkbox"
                          checked={grants[m][r]}
                          onChange={(e) => toggle(m, r, e.target.checked)}
                        />
                        <span className="visually-hidden">{text.rightOn(text.rights[r], text.modules[m])}</span>
                      </label>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </fieldset>
    </FormDialog>
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (value: boolean) => void }) {
  return (
    <label className="checkbox st-checkbox">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {label}
    </label>
  );
}
