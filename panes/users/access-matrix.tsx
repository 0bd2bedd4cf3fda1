// The editable access matrix of a user: one row per business with its business-level roles, merchant rows under it
// with merchant-level roles, role groups offered per row (shown as applied only when all their roles are held and
// the group is allowed for that kind of target, spec), and internal (root) roles for technical admins.
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { api } from '../../src/api/api-client.ts';
import { validate } from '../../src/api/validate.ts';
import { roleKinds, roleLabels, roleNames, type RoleName } from '../../src/contract/permissions.ts';
import type { PolicyInput, UserDetail } from '../../src/contract/user-schemas.ts';
import { roleGroupApplies, roleGroups, type RoleGroup, type RoleGroupTarget } from '../../src/contract/users.ts';
import { useFocusRequest } from '../../src/ui/focus-request.ts';

export type MerchantAccess = { merchantId: string; merchantName: string; roles: string[] };
export type BusinessAccess = { businessId: string; businessName: string; roles: string[]; merchants: MerchantAccess[] };
export type AccessDraft = { rootRoles: string[]; businesses: BusinessAccess[] };

export const emptyAccess: AccessDraft = { rootRoles: [], businesses: [] };

const rolesFor = (kind: 'business' | 'merchant' | 'internal') => roleNames.filter((role) => roleKinds[role].includes(kind));
export const businessRoles = rolesFor('business');
export const merchantRoles = rolesFor('merchant');
export const internalRoles = rolesFor('internal');

export function accessOfPolicy(policy: UserDetail['policyStructure']['portalPolicy']): AccessDraft {
  return {
    rootRoles: [...policy.roles],
    businesses: policy.businessPolicies.map((business) => ({
      businessId: business.businessId,
      businessName: business.businessName,
      roles: [...business.roles],
      merchants: business.merchantPolicies.map((merchant) => ({
        merchantId: merchant.merchantId,
        merchantName: merchant.merchantName,
        roles: [...merchant.roles],
      })),
    })),
  };
}

/** The policy a write sends; the partner policy is left out (kept as it is by the server). */
export function policyOfAccess(access: AccessDraft): PolicyInput {
  return {
    roles: access.rootRoles as RoleName[],
    businessPolicies: access.businesses.map((business) => ({
      businessId: business.businessId,
      roles: business.roles as RoleName[],
      merchantPolicies: business.merchants
        .filter((merchant) => merchant.roles.length > 0)
        .map((merchant) => ({ merchantId: merchant.merchantId, roles: merchant.roles as RoleName[] })),
    })),
  };
}

/** What is missing, worded as the server words it (the server checks again). */
export function accessProblems(access: AccessDraft): string[] {
  if (access.rootRoles.length > 0) return access.businesses.length > 0 ? ['An internal user holds internal roles only.'] : [];
  if (access.businesses.length === 0) return ['A user needs at least one business.'];
  return access.businesses
    .filter((business) => business.roles.length === 0 && business.merchants.every((merchant) => merchant.roles.length === 0))
    .map((business) => `${business.businessName} needs at least one business or merchant role.`);
}

const toggle = (roles: readonly string[], role: string, on: boolean) => (on ? [...new Set([...roles, role])] : roles.filter((held) => held !== role));

function GroupButtons({
  target,
  roles,
  label,
  onApply,
}: {
  target: RoleGroupTarget;
  roles: readonly string[];
  label: string;
  onApply: (group: RoleGroup) => void;
}) {
  return (
    <div className="role-groups" role="group" aria-label={`Role groups for ${label}`}>
      {roleGroups
        .filter((group) => group.targets.includes(target))
        .map((group) => (
          <button
            key={group.id}
            type="button"
            className="button button-small"
            aria-pressed={roleGroupApplies(group, roles, target)}
            onClick={() => onApply(group)}
          >
            {group.name}
          </button>
        ))}
    </div>
  );
}

/**
 * A choice that adds something: arrow keys only move through the options (in Chromium and Firefox a closed select
 * changes its value on every arrow key), and the choice is added on Enter or with the Add button.
 */
function AddPicker({
  id,
  label,
  placeholder,
  what,
  options,
  onAdd,
}: {
  id: string;
  label: string;
  placeholder: string;
  what: string;
  options: readonly { value: string; label: string }[];
  onAdd: (value: string) => void;
}) {
  const [chosen, setChosen] = useState('');
  const add = () => {
    if (!chosen) return;
    onAdd(chosen);
    setChosen('');
  };
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={chosen}
        onChange={(event) => setChosen(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            add();
          }
        }}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <button type="button" className="button button-small" disabled={!chosen} onClick={add}>
        Add {what}
      </button>
    </>
  );
}

function MerchantPicker({ business, onAdd }: { business: BusinessAccess; onAdd: (merchant: { merchantId: string; merchantName: string }) => void }) {
  const id = useId();
  const merchants = useQuery({
    queryKey: ['users', 'merchantChoices', business.businessId],
    queryFn: async ({ signal }) =>
      validate(
        'contextMerchantPage',
        await api.get<unknown>(`/context/businesses/${encodeURIComponent(business.businessId)}/merchants`, { query: { pagesize: 100 }, signal }),
      ),
    staleTime: 60_000,
  });
  const choices = (merchants.data?.data ?? []).filter((merchant) => !business.merchants.some((held) => held.merchantId === merchant.merchantId));
  if (choices.length === 0) return null;
  return (
    <div className="access-add">
      <AddPicker
        id={id}
        label={`Add a merchant of ${business.businessName}`}
        placeholder="Choose a merchant…"
        what="merchant"
        options={choices.map((merchant) => ({ value: merchant.merchantId, label: `${merchant.merchantName} (${merchant.merchantId})` }))}
        onAdd={(merchantId) => {
          const merchant = choices.find((choice) => choice.merchantId === merchantId);
          if (merchant) onAdd({ merchantId: merchant.merchantId, merchantName: merchant.merchantName });
        }}
      />
    </div>
  );
}

export function AccessMatrix({ value, onChange, allowInternal }: { value: AccessDraft; onChange: (next: AccessDraft) => void; allowInternal: boolean }) {
  const addId = useId();
  const businesses = useQuery({
    queryKey: ['users', 'businessChoices'],
    queryFn: async ({ signal }) => validate('contextBusinessPage', await api.get<unknown>('/context/businesses', { query: { pagesize: 100 }, signal })),
    staleTime: 60_000,
  });
  const choices = (businesses.data?.data ?? []).filter((business) => !value.businesses.some((held) => held.businessId === business.businessId));
  const setBusiness = (businessId: string, change: (business: BusinessAccess) => BusinessAccess) =>
    onChange({ ...value, businesses: value.businesses.map((business) => (business.businessId === businessId ? change(business) : business)) });
  // Focus follows the rows: an added row's first role takes it, a removed row's place (the next row's Remove, the
  // one before, else the business picker) takes it from the button that went with the row.
  const matrix = useRef<HTMLDivElement>(null);
  const requestFocus = useFocusRequest();
  const focusAdded = (key: string) =>
    requestFocus(() => matrix.current?.querySelector<HTMLElement>(`tr[data-access-row="${CSS.escape(key)}"] input[type="checkbox"]`));
  const removeRow = (button: HTMLElement, remove: () => void) => {
    const position = [...(matrix.current?.querySelectorAll('.access-remove') ?? [])].indexOf(button);
    remove();
    requestFocus(() => {
      const left = matrix.current?.querySelectorAll<HTMLElement>('.access-remove') ?? [];
      return left[Math.min(position, left.length - 1)] ?? matrix.current?.querySelector<HTMLElement>('select');
    });
  };

  return (
    <div className="access-matrix" ref={matrix}>
      {allowInternal ? (
        <fieldset className="access-internal">
          <legend>Internal roles (internal users hold these only)</legend>
          {internalRoles.map((role) => (
            <label key={role} className="check">
              <input
                type="checkbox"
                checked={value.rootRoles.includes(role)}
                onChange={(event) => onChange({ ...value, rootRoles: toggle(value.rootRoles, role, event.target.checked) })}
              />
              {roleLabels[role]}
            </label>
          ))}
        </fieldset>
      ) : null}
      <table className="detail-table access-table">
        <caption>Access per business and merchant</caption>
        <thead>
          <tr>
            <th scope="col">Business or merchant</th>
            {businessRoles.map((role) => (
              <th key={role} scope="col">
                {roleLabels[role]}
              </th>
            ))}
            <th scope="col">Role groups</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {value.businesses.length === 0 ? (
            <tr>
              <td colSpan={businessRoles.length + 3}>No business yet: add one below.</td>
            </tr>
          ) : (
            value.businesses.flatMap((business) => [
              <tr key={business.businessId} className="access-business" data-access-row={business.businessId}>
                <th scope="row">
                  {business.businessName} <span className="muted">({business.businessId})</span>
                </th>
                {businessRoles.map((role) => (
                  <td key={role}>
                    <input
                      type="checkbox"
                      aria-label={`${roleLabels[role]} at ${business.businessName}`}
                      checked={business.roles.includes(role)}
                      onChange={(event) =>
                        setBusiness(business.businessId, (current) => ({ ...current, roles: toggle(current.roles, role, event.target.checked) }))
                      }
                    />
                  </td>
                ))}
                <td>
                  <GroupButtons
                    target="business"
                    roles={business.roles}
                    label={business.businessName}
                    onApply={(group) => setBusiness(business.businessId, (current) => ({ ...current, roles: [...group.roles] }))}
                  />
                </td>
                <td>
                  <button
                    type="button"
                    className="button button-ghost button-small access-remove"
                    onClick={(event) =>
                      removeRow(event.currentTarget, () =>
                        onChange({ ...value, businesses: value.businesses.filter((held) => held.businessId !== business.businessId) }),
                      )
                    }
                  >
                    Remove {business.businessName}
                  </button>
                </td>
              </tr>,
              ...business.merchants.map((merchant) => (
                <tr
                  key={`${business.businessId}/${merchant.merchantId}`}
                  className="access-merchant"
                  data-access-row={`${business.businessId}/${merchant.merchantId}`}
                >
                  <th scope="row">
                    <span aria-hidden="true">↳ </span>
                    {merchant.merchantName} <span className="muted">({merchant.merchantId})</span>
                  </th>
                  {businessRoles.map((role) => (
                    <td key={role}>
                      {(merchantRoles as readonly string[]).includes(role) ? (
                        <input
                          type="checkbox"
                          aria-label={`${roleLabels[role]} at ${merchant.merchantName}`}
                          checked={merchant.roles.includes(role)}
                          onChange={(event) =>
                            setBusiness(business.businessId, (current) => ({
                              ...current,
                              merchants: current.merchants.map((held) =>
                                held.merchantId === merchant.merchantId ? { ...held, roles: toggle(held.roles, role, event.target.checked) } : held,
                              ),
                            }))
                          }
                        />
                      ) : (
                        <span className="muted" title="Business level only">
                          —
                        </span>
                      )}
                    </td>
                  ))}
                  <td>
                    <GroupButtons
                      target="merchant"
                      roles={merchant.roles}
                      label={merchant.merchantName}
                      onApply={(group) =>
                        setBusiness(business.businessId, (current) => ({
                          ...current,
                          merchants: current.merchants.map((held) => (held.merchantId === merchant.merchantId ? { ...held, roles: [...group.roles] } : held)),
                        }))
                      }
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button-ghost button-small access-remove"
                      onClick={(event) =>
                        removeRow(event.currentTarget, () =>
                          setBusiness(business.businessId, (current) => ({
                            ...current,
                            merchants: current.merchants.filter((held) => held.merchantId !== merchant.merchantId),
                          })),
                        )
                      }
                    >
                      Remove {merchant.merchantName}
                    </button>
                  </td>
                </tr>
              )),
              <tr key={`${business.businessId}/add`} className="access-merchant-add">
                <td colSpan={businessRoles.length + 3}>
                  <MerchantPicker
                    business={business}
                    onAdd={(merchant) => {
                      setBusiness(business.businessId, (current) => ({ ...current, merchants: [...current.merchants, { ...merchant, roles: [] }] }));
                      focusAdded(`${business.businessId}/${merchant.merchantId}`);
                    }}
                  />
                </td>
              </tr>,
            ])
          )}
        </tbody>
      </table>
      {choices.length > 0 ? (
        <div className="access-add">
          <AddPicker
            id={addId}
            label="Add a business"
            placeholder="Choose a business…"
            what="business"
            options={choices.map((business) => ({ value: business.businessId, label: `${business.businessName} (${business.businessId})` }))}
            onAdd={(businessId) => {
              const business = choices.find((choice) => choice.businessId === businessId);
              if (!business) return;
              onChange({
                ...value,
                businesses: [...value.businesses, { businessId: business.businessId, businessName: business.businessName, roles: [], merchants: [] }],
              });
              focusAdded(business.businessId);
            }}
          />
        </div>
      ) : null}
    </div>
  );
}
