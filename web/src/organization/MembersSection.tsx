/** Members and invitations: invite, change role, renew a quota, remove or withdraw, transfer the ownership. */
import { useState } from 'react';
import { formatDateTime } from '../workspace/ui.tsx';
import { useMe } from '../workspace/session-api.ts';
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
import { orgText as text } from '../i18n/organization/index.ts';
import { orgApi, type Member } from './org-api.ts';
import { isPersonName } from '../shared/person-name.ts';
import { Skeleton } from '../shared/Skeleton.tsx';

const PAGE_SIZE = 20;

type Action =
  | { kind: 'invite' }
  | { kind: 'role'; member: Member }
  | { kind: 'renew'; member: Member }
  | { kind: 'remove'; member: Member }
  | { kind: 'transfer'; member: Member };

export function MembersSection({ isOwner }: { isOwner: boolean }) {
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const members = useResource(
    () => orgApi.members({ page, size: PAGE_SIZE, searchValue: search || undefined, status: status || undefined }),
    [page, search, status],
  );
  const [action, setAction] = useState<Action | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function onSearch(term: string) {
    setPage(0);
    setSearch(term);
  }
  function finished(message: string) {
    setAction(null);
    setDone(message);
    members.reload();
  }

  return (
    <section aria-labelledby="st-section-title">
      <div className="ws-page-head">
        <h2 id="st-section-title">{text.sectionTitles.members}</h2>
        {isOwner && (
          <button type="button" className="ws-button ws-button--primary" onClick={() => setAction({ kind: 'invite' })}>
            {text.inviteMember}
          </button>
        )}
      </div>
      <div className="ws-toolbar">
        <SearchForm id="st-member-search" label={text.searchMembers} buttonLabel={text.search} onSearch={onSearch} />
        <div>
          <label htmlFor="st-member-status">{text.statusFilter}</label>
          <select
            id="st-member-status"
            value={status}
            onChange={(e) => {
              setPage(0);
              setStatus(e.target.value);
            }}
          >
            <option value="">{text.allStatuses}</option>
            <option value="ACTIVE">{text.memberStatus.ACTIVE}</option>
            <option value="INVITED">{text.memberStatus.INVITED}</option>
            <option value="DECLINED">{text.memberStatus.DECLINED}</option>
          </select>
        </div>
      </div>
      <StatusLine message={done} />
      {members.error ? <ApiErrorText error={members.error} /> : null}
      {members.loading && !members.data && <Skeleton shape="rows" label={text.loading} withHeading={false} />}
      {members.data && (
        <>
          <div className="ws-table-wrap">
            <table className="ws-table ws-table--list">
              <caption>{text.membersCaption(members.data.totalElements)}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.name}</th>
                  <th scope="col">{text.email}</th>
                  <th scope="col">{text.role}</th>
                  <th scope="col">{text.status}</th>
                  <th scope="col">
                    <abbr title={text.quotaUsedLong}>{text.quotaUsed}</abbr>
                  </th>
                  {isOwner && <th scope="col">{text.actions}</th>}
                </tr>
              </thead>
              <tbody>
                {members.data.content.map((member) => (
                  <tr key={member.userId}>
                    <th scope="row">
                      {member.name}
                      {member.isOwner && <span className="st-badge">{text.owner}</span>}
                    </th>
                    <td className="st-wrap">{member.emailAddress}</td>
                    <td data-label={text.role}>{member.isOwner ? text.ownerRole : (member.roleName ?? text.noRole)}</td>
                    <td>
                      <span
                        className={`ws-status ws-status--${member.status === 'ACTIVE' ? 'COMPLETED' : member.status === 'INVITED' ? 'SENT' : 'DECLINED'}`}
                      >
                        {text.memberStatus[member.status]}
                      </span>
                      {member.status === 'INVITED' && member.invitedAt && (
                        <span className="ws-muted st-block">{text.invitedOn(formatDateTime(member.invitedAt))}</span>
                      )}
                    </td>
                    <td className="st-numbers" data-label={text.quotaUsedLong}>
                      {member.usedElectronic} / {member.usedAdvanced} / {member.usedQualified}
                    </td>
                    {/* Every change to a member is the owner's (the service answers 403 to anyone else): others get no actions column. */}
                    {isOwner && (
                      <td>
                        {!member.isOwner && (
                          <div className="st-row-actions">
                            <button
                              type="button"
                              className="ws-button ws-button--small"
                              aria-label={text.changeRoleOf(member.name)}
                              onClick={() => setAction({ kind: 'role', member })}
                            >
                              {text.changeRole}
                            </button>
                            {member.status === 'ACTIVE' && (
                              <button
                                type="button"
                                className="ws-button ws-button--small"
                                aria-label={text.renewQuotaOf(member.name)}
                                onClick={() => setAction({ kind: 'renew', member })}
                              >
                                {text.renewQuota}
                              </button>
                            )}
                            <button
                              type="button"
                              className="ws-button ws-button--small ws-button--quiet"
                              aria-label={(member.status === 'ACTIVE' ? text.removeOf : text.withdrawOf)(member.name)}
                              onClick={() => setAction({ kind: 'remove', member })}
                            >
                              {member.status === 'ACTIVE' ? text.remove : text.withdraw}
                            </button>
                            {member.status === 'ACTIVE' && member.hasAccount && (
                              <button
                                type="button"
                                className="ws-button ws-button--small ws-button--quiet"
                                aria-label={text.makeOwnerOf(member.name)}
                                onClick={() => setAction({ kind: 'transfer', member })}
                              >
                                {text.makeOwner}
                              </button>
                            )}
                          </div>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {members.data.content.length === 0 && (
            <p className="ws-empty">{search || status ? text.noMembersMatch : text.noMembers}</p>
          )}
          <Pager
            page={page}
            size={PAGE_SIZE}
            total={members.data.totalElements}
            onPage={setPage}
            label={text.membersPages}
          />
        </>
      )}
      {action?.kind === 'invite' && (
        <InviteDialog onClose={() => setAction(null)} onDone={(m) => finished(text.invited(m.emailAddress))} />
      )}
      {action?.kind === 'role' && (
        <RoleDialog
          member={action.member}
          onClose={() => setAction(null)}
          onDone={(m) => finished(text.roleChanged(m.name, m.roleName ?? text.noRole))}
        />
      )}
      {action?.kind === 'renew' && (
        <ConfirmAction
          title={text.renewQuotaTitle(action.member.name)}
          description={text.renewQuotaText}
          submitLabel={text.renewQuota}
          run={() => orgApi.renewQuota(action.member.userId)}
          onClose={() => setAction(null)}
          onDone={() => finished(text.quotaRenewed(action.member.name))}
        />
      )}
      {action?.kind === 'remove' && (
        <ConfirmAction
          title={
            action.member.status === 'ACTIVE'
              ? text.removeTitle(action.member.name)
              : text.withdrawTitle(action.member.name)
          }
          description={action.member.status === 'ACTIVE' ? text.removeText : text.withdrawText}
          submitLabel={action.member.status === 'ACTIVE' ? text.remove : text.withdraw}
          run={() => orgApi.removeMembers([action.member.userId], action.member.status === 'ACTIVE')}
          onClose={() => setAction(null)}
          onDone={() =>
            finished(
              action.member.status === 'ACTIVE' ? text.removed(action.member.name) : text.withdrawn(action.member.name),
            )
          }
        />
      )}
      {action?.kind === 'transfer' && (
        <TransferDialog
          member={action.member}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null);
            window.location.assign('/organization');
          }}
        />
      )}
    </section>
  );
}

/** A confirmation whose refusal (403, 400) is shown inside it, next to the button that caused it. */
export function ConfirmAction({
  title,
  description,
  submitLabel,
  run,
  onClose,
  onDone,
}: {
  title: string;
  description: string;
  submitLabel: string;
  run: () => Promise<unknown>;
  onClose: () => void;
  onDone: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function submit() {
    setBusy(true);
    setError(null);
    try {
      await run();
      onDone();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }
  return (
    <FormDialog
      open
      title={title}
      description={<p>{description}</p>}
      submitLabel={submitLabel}
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      {null}
    </FormDialog>
  );
}

function InviteDialog({ onClose, onDone }: { onClose: () => void; onDone: (member: Member) => void }) {
  const roles = useResource(() => orgApi.availableRoles(), []);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const issues = { ...fieldIssues(error), ...local };

  async function submit() {
    const problems: Record<string, string> = {};
    if (!isPersonName(name.trim()) || name.trim().length < 3 || name.trim().length > 20)
      problems.name = text.inviteNameRule;
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) problems.emailAddress = text.emailRule;
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      onDone(await orgApi.invite({ name: name.trim(), emailAddress: email.trim(), role: role ? Number(role) : null }));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open
      title={text.inviteTitle}
      description={<p>{text.inviteText}</p>}
      submitLabel={text.sendInvitation}
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
          setLocal((l) => ({ ...l, name: '' }));
        }}
        required
        autoComplete="name"
        maxLength={20}
        hint={text.inviteNameRule}
        error={issues.name}
      />
      <TextField
        label={text.email}
        type="email"
        value={email}
        onChange={(v) => {
          setEmail(v);
          setLocal((l) => ({ ...l, emailAddress: '' }));
        }}
        required
        autoComplete="email"
        maxLength={255}
        error={issues.emailAddress}
      />
      <div className="st-field">
        <label htmlFor="st-invite-role" className="st-label">
          {text.role}
        </label>
        <select
          id="st-invite-role"
          value={role}
          onChange={(e) => setRole(e.target.value)}
          aria-describedby={roles.error ? 'st-invite-role-error' : undefined}
        >
          <option value="">{text.noRole}</option>
          {(roles.data ?? []).map((r) => (
            <option key={r.roleId} value={r.roleId}>
              {r.roleName}
            </option>
          ))}
        </select>
        {roles.error ? <ApiErrorText error={roles.error} id="st-invite-role-error" /> : null}
      </div>
    </FormDialog>
  );
}

function RoleDialog({
  member,
  onClose,
  onDone,
}: {
  member: Member;
  onClose: () => void;
  onDone: (member: Member) => void;
}) {
  const roles = useResource(() => orgApi.availableRoles(), []);
  const [role, setRole] = useState(member.roleId === null ? '' : String(member.roleId));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function submit() {
    setBusy(true);
    setError(null);
    try {
      onDone(await orgApi.changeRole(member.userId, role ? Number(role) : null));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }
  return (
    <FormDialog
      open
      title={text.changeRoleTitle(member.name)}
      submitLabel={text.saveRole}
      busy={busy}
      error={error ?? roles.error}
      onSubmit={submit}
      onClose={onClose}
    >
      <div className="st-field">
        <label htmlFor="st-member-role" className="st-label">
          {text.role}
        </label>
        <select id="st-member-role" value={role} onChange={(e) => setRole(e.target.value)}>
          <option value="">{text.noRole}</option>
          {(roles.data ?? []).map((r) => (
            <option key={r.roleId} value={r.roleId}>
              {r.roleName}
            </option>
          ))}
        </select>
      </div>
    </FormDialog>
  );
}

/**
 * The ownership goes to an active member: the former owner stays a member without a role. The API takes the
 * organization's name with the member's email; typing it is the confirmation.
 */
function TransferDialog({ member, onClose, onDone }: { member: Member; onClose: () => void; onDone: () => void }) {
  const { me } = useMe();
  const [orgName, setOrgName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<string | null>(null);
  async function submit() {
    if (!orgName.trim()) return setLocal(text.orgNameRequired);
    setLocal(null);
    setBusy(true);
    setError(null);
    try {
      await orgApi.transferOwnership(orgName.trim(), member.emailAddress);
      onDone();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }
  return (
    <FormDialog
      open
      title={text.transferTitle(member.name)}
      description={<p>{text.transferText(member.name)}</p>}
      submitLabel={text.transferSubmit}
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={text.orgNameLabel}
        value={orgName}
        onChange={(v) => {
          setOrgName(v);
          setLocal(null);
        }}
        required
        error={local}
        hint={me ? text.orgNameHint(`${me.name}'s organization`) : undefined}
      />
    </FormDialog>
  );
}
