// One configuration, in tabs: general, payment methods, hosted pages, API keys, switches (Shift+1 / Shift+2 show
// the first two; arrow keys move along the tab list). Every save sends the configuration's shared version; a stale
// one answers 409 and the shell asks 'Someone updated this view': Stay keeps the edits here and shows what the
// other side saved (a second save then replaces it), Discard changes reloads. Unsaved edits guard the pane.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { isApiError } from '../../src/api/api-error.ts';
import {
  configurationQueries,
  createHostedPage,
  deleteConfiguration,
  deleteHostedPage,
  saveConfiguration,
  savePaymentMethod,
} from '../../src/api/configuration-queries.ts';
import type { ConfigurationDetail, PaymentMethodSettings } from '../../src/contract/configuration-schemas.ts';
import {
  cardLikeMethods,
  checkConfigurationEdit,
  checkPaymentMethodEdit,
  configurationSwitchLabels,
  configurationSwitchNames,
  defaultHostedPageDesign,
  maxDescriptionLength,
  maxDisplayNameLength,
  maxTradeNameLength,
  paymentMethodLabels,
  threeDSecurePolicies,
  threeDSecurePolicyLabels,
  type PaymentMethodEdit,
  type ThreeDSecurePolicy,
} from '../../src/contract/configurations.ts';
import type { PaymentMethod } from '../../src/contract/enumerations.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { type PaneProps, usePaneCapabilities, useLeaveFormGuard } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { CheckboxField, SelectField, TextField } from '../../src/ui/form-field.tsx';
import { Modal } from '../../src/ui/modal.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { Tabs, type TabDefinition } from '../../src/ui/tabs.tsx';
import { ApiKeysPanel } from './api-keys-panel.tsx';
import { useMerchantContext } from './configuration-context.ts';
import { RecordChangedNotice, useVersionedDraft } from '../../src/ui/record-changed.tsx';
import '../../src/ui/form-field.css';
import './configurations.css';

export const configurationTabIds = ['general', 'paymentMethods', 'hostedPages', 'apiKeys', 'switches', 'payments'] as const;
const tabLabels = {
  general: 'General',
  paymentMethods: 'Payment methods',
  hostedPages: 'Hosted pages',
  apiKeys: 'API keys',
  switches: 'Switches',
  payments: 'Payments',
} as const;

type General = { tradeName: string; description: string };
type Switches = ConfigurationDetail['switches'];
type Draft = { general: General; switches: Switches };
const draftOf = (detail: ConfigurationDetail): Draft => ({
  general: { tradeName: detail.tradeName, description: detail.description },
  switches: detail.switches,
});

/** The request failed with 409 and the user chose Stay (true) or Discard changes (false); null: no conflict. */
function conflictChoice(error: unknown): 'stay' | 'discard' | null {
  if (!isApiError(error)) return null;
  if (error.kind === 'conflictKept') return 'stay';
  if (error.kind === 'conflictDiscarded') return 'discard';
  return null;
}

export function ConfigurationDetailPane({ params, search }: PaneProps) {
  const configurationId = params.configurationId ?? '';
  const merchant = useMerchantContext();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const businessId = merchant?.businessId ?? '';
  const merchantId = merchant?.merchantId ?? '';
  const detailOptions = configurationQueries.detail(businessId, merchantId, configurationId);
  const detail = useQuery({ ...detailOptions, enabled: merchant !== null });
  const canEdit = merchant?.can('Mapi.Configurations.Update') ?? false;
  const canManageKeys = merchant?.can('Mapi.ApiKeys.Manage') ?? false;
  const requestedTab = new URLSearchParams(search).get('tab');
  const [tab, setTab] = useState(() => Math.max(0, configurationTabIds.indexOf(requestedTab as (typeof configurationTabIds)[number])));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const titleId = useId();

  const tabs: TabDefinition[] = configurationTabIds.map((id) => ({ id, label: tabLabels[id], disabled: id === 'apiKeys' && !canManageKeys }));
  const activeTab = tabs[tab]?.disabled ? 0 : tab;
  const data = detail.data;
  // The version the edits started from: a live refresh that brings a newer one shows 'This record changed'
  // (record-changed.tsx) instead of letting a save send the newer version and overwrite it unseen.
  const editor = useVersionedDraft(data, draftOf, { alwaysOpen: true });
  const { dirty, theirs, tried, setTried } = editor;
  useLeaveFormGuard(dirty);
  const [newItemRequest, setNewItemRequest] = useState(0);
  const submitRef = useRef<() => void>(() => undefined);
  usePaneCapabilities({
    tabs: (index) => {
      if (index !== undefined && !tabs[index]?.disabled) setTab(index);
    },
    ...(canEdit && dirty ? { save: () => submitRef.current() } : {}),
    ...(canEdit && data ? { delete: () => setConfirmDelete(true) } : {}),
    // Shift+N: a new hosted page on the hosted pages tab, a new API key on the API keys tab.
    ...((canEdit && configurationTabIds[activeTab] === 'hostedPages') || (canManageKeys && configurationTabIds[activeTab] === 'apiKeys')
      ? { newItem: () => setNewItemRequest((count) => count + 1) }
      : {}),
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: configurationQueries.all });
  const onConflict = async (error: unknown) => {
    const choice = conflictChoice(error);
    if (choice === 'stay') editor.conflictKept(await queryClient.fetchQuery({ ...detailOptions, staleTime: 0 }));
    else if (choice === 'discard') editor.stop();
  };
  const save = useMutation({
    mutationFn: (body: { general: General; switches: Switches; version: number }) =>
      saveConfiguration(businessId, merchantId, configurationId, {
        tradeName: body.general.tradeName.trim(),
        description: body.general.description.trim(),
        switches: body.switches,
        version: body.version,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(detailOptions.queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: [...configurationQueries.all, merchantId, 'list'] });
      // The form starts again from the saved configuration (now the query's).
      editor.stop();
      setTried(false);
      showToast({ kind: 'success', message: 'Configuration saved.' });
    },
    onError: onConflict,
  });
  const remove = useMutation({
    mutationFn: (version: number) => deleteConfiguration(businessId, merchantId, configurationId, version),
    onSuccess: () => {
      setConfirmDelete(false);
      void refresh();
      showToast({ kind: 'success', message: 'Configuration deleted.' });
      navigate('/configurations');
    },
    onError: (error) => {
      setConfirmDelete(false);
      void onConflict(error);
    },
  });

  if (!merchant) {
    return (
      <div className="record-pane">
        <h1>Configuration {configurationId}</h1>
        <p>
          Configurations belong to a merchant. <a href="/context?route=%2Fconfigurations">Choose a merchant</a> first.
        </p>
      </div>
    );
  }
  if (detail.isPending)
    return (
      <div className="record-pane">
        <Skeleton lines={6} label="Loading the configuration" />
      </div>
    );
  if (detail.isError || !data) {
    const notFound = isApiError(detail.error) && detail.error.status === 404;
    return (
      <div className="record-pane">
        <h1>Configuration {configurationId}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The configuration could not be loaded.'}</p>
      </div>
    );
  }
  const version = editor.version();
  const { general: generalDraft, switches: switchesDraft } = editor.draft ?? draftOf(data);
  const setGeneral = (general: General) => editor.setDraft({ general, switches: switchesDraft });
  const setSwitches = (switches: Switches) => editor.setDraft({ general: generalDraft, switches });
  const generalErrors = checkConfigurationEdit({ tradeName: generalDraft.tradeName.trim(), description: generalDraft.description.trim() });
  const submit = () => {
    setTried(true);
    if (Object.keys(generalErrors).length > 0) {
      setTab(0);
      return;
    }
    save.mutate({ general: generalDraft, switches: switchesDraft, version });
  };
  submitRef.current = submit;
  const formActions = canEdit ? (
    <div className="form-actions">
      <button type="submit" className="button button-primary" disabled={save.isPending || !dirty}>
        Save
      </button>
      {dirty ? (
        <button type="button" className="button" onClick={editor.stop}>
          Undo changes
        </button>
      ) : null}
    </div>
  ) : null;

  const contents = [
    <form
      key="general"
      className="record-section"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="form-grid">
        <TextField
          label="Trade name"
          required
          maxLength={maxTradeNameLength}
          value={generalDraft.tradeName}
          disabled={!canEdit}
          error={tried ? generalErrors.tradeName : undefined}
          onChange={(tradeName) => setGeneral({ ...generalDraft, tradeName })}
          hint={theirs && theirs.tradeName !== generalDraft.tradeName ? <span className="form-compare">Their version: {theirs.tradeName}</span> : undefined}
        />
        <TextField
          label="Description"
          multiline
          maxLength={maxDescriptionLength}
          value={generalDraft.description}
          disabled={!canEdit}
          error={tried ? generalErrors.description : undefined}
          onChange={(description) => setGeneral({ ...generalDraft, description })}
          hint={
            theirs && theirs.description !== generalDraft.description ? (
              <span className="form-compare">Their version: {theirs.description || '(empty)'}</span>
            ) : undefined
          }
        />
      </div>
      <dl className="detail-grid">
        <div>
          <dt>Configuration ID</dt>
          <dd>{data.configurationId}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>{data.version}</dd>
        </div>
      </dl>
      {formActions}
    </form>,
    <PaymentMethodsPanel
      key="paymentMethods"
      detail={data}
      canEdit={canEdit}
      onSave={async (method, edit, methodVersion) => {
        try {
          await savePaymentMethod(businessId, merchantId, configurationId, method, { ...edit, version: methodVersion });
          await refresh();
          showToast({ kind: 'success', message: `${paymentMethodLabels[method]} saved.` });
          return true;
        } catch (error) {
          if (conflictChoice(error) === 'stay') await refresh();
          return false;
        }
      }}
    />,
    <HostedPagesPanel
      key="hostedPages"
      detail={data}
      canEdit={canEdit}
      businessId={businessId}
      merchantId={merchantId}
      onChanged={refresh}
      newItemRequest={newItemRequest}
    />,
    canManageKeys ? (
      <ApiKeysPanel key="apiKeys" businessId={businessId} merchantId={merchantId} configurationId={configurationId} newKeyRequest={newItemRequest} />
    ) : (
      <p key="apiKeys">API keys are managed by the business's owners, external developers, Implementations and Technical admin.</p>
    ),
    <form
      key="switches"
      className="record-section"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <fieldset className="form-grid">
        <legend>Switches</legend>
        {configurationSwitchNames.map((name) => (
          <CheckboxField
            key={name}
            label={configurationSwitchLabels[name]}
            checked={switchesDraft[name] === true}
            disabled={!canEdit}
            hint={theirs && theirs.switches[name] !== switchesDraft[name] ? `Their version: ${theirs.switches[name] ? 'on' : 'off'}` : undefined}
            onChange={(checked) => setSwitches({ ...switchesDraft, [name]: checked })}
          />
        ))}
      </fieldset>
      {formActions}
    </form>,
    // The configuration's payment jobs: the overview with this configuration as its filter (panes/payment-jobs/).
    <div key="payments" className="record-section">
      <p>The payment jobs of this configuration, with the status tabs and filters of the overview.</p>
      <a className="button" href={`/configurations/${encodeURIComponent(configurationId)}/payments`}>
        Open the payment jobs of {data.tradeName}
      </a>
    </div>,
  ];

  return (
    <article className="record-pane" aria-labelledby={titleId}>
      <header className="record-header">
        <h1 id={titleId}>{data.tradeName}</h1>
        <div className="record-tools">
          {canEdit ? (
            <button type="button" className="button button-danger" onClick={() => setConfirmDelete(true)}>
              Delete configuration
            </button>
          ) : null}
        </div>
      </header>
      <RecordChangedNotice what="configuration" editor={editor} />
      {theirs ? (
        <p className="form-warning" role="status">
          Someone else saved this configuration meanwhile (version {theirs.version}). Their values are shown beside yours; saving again replaces them.
        </p>
      ) : null}
      <Tabs label="Configuration" tabs={tabs} contents={contents} activeIndex={activeTab} onActiveIndexChange={setTab} />
      <ConfirmDialog
        open={confirmDelete}
        title="Delete this configuration?"
        text={`'${data.tradeName}', its payment-method settings, hosted pages and API keys are removed. Shops using its API keys stop working at once.`}
        confirmLabel="Delete configuration"
        cancelLabel="Keep it"
        onConfirm={() => remove.mutate(version)}
        onCancel={() => setConfirmDelete(false)}
      />
    </article>
  );
}

const methodRow = (settings: PaymentMethodSettings) => [
  settings.enabled ? 'On' : 'Off',
  settings.displayName,
  settings.threeDSecurePolicy ? threeDSecurePolicyLabels[settings.threeDSecurePolicy] : '—',
  settings.minimumAmount === null && settings.maximumAmount === null ? 'Any' : `${settings.minimumAmount ?? 0} – ${settings.maximumAmount ?? 'no maximum'}`,
  settings.currencies.join(', '),
];

function PaymentMethodsPanel(props: {
  detail: ConfigurationDetail;
  canEdit: boolean;
  onSave: (method: PaymentMethod, edit: PaymentMethodEdit, version: number) => Promise<boolean>;
}) {
  // The form saves against the version it opened with: a live refresh meanwhile makes the save a 409, not an overwrite.
  const [opened, setOpened] = useState<{ method: PaymentMethod; version: number } | null>(null);
  const editing = opened?.method ?? null;
  const captionId = useId();
  const current = props.detail.paymentMethods.find((entry) => entry.paymentMethod === editing)?.configuration;
  return (
    <div className="record-section">
      <table className="method-table" aria-labelledby={captionId}>
        <caption id={captionId} className="visually-hidden">
          Payment methods
        </caption>
        <thead>
          <tr>
            <th scope="col">Payment method</th>
            <th scope="col">Enabled</th>
            <th scope="col">Display name</th>
            <th scope="col">3-D Secure</th>
            <th scope="col">Amounts</th>
            <th scope="col">Currencies</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.detail.paymentMethods.map(({ paymentMethod, configuration }) => (
            <tr key={paymentMethod}>
              <th scope="row">{paymentMethodLabels[paymentMethod]}</th>
              {methodRow(configuration).map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the row's cells are fixed columns; the place is the column
                <td key={index}>{cell}</td>
              ))}
              <td>
                {props.canEdit ? (
                  <button
                    type="button"
                    className="button"
                    onClick={() => setOpened({ method: paymentMethod, version: props.detail.version })}
                    aria-label={`Edit ${paymentMethodLabels[paymentMethod]}`}
                  >
                    Edit
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {opened && current ? (
        <PaymentMethodForm
          method={opened.method}
          settings={current}
          onClose={() => setOpened(null)}
          onSave={async (edit) => {
            if (await props.onSave(opened.method, edit, opened.version)) setOpened(null);
          }}
        />
      ) : null}
    </div>
  );
}

function PaymentMethodForm(props: {
  method: PaymentMethod;
  settings: PaymentMethodSettings;
  onClose: () => void;
  onSave: (edit: PaymentMethodEdit) => Promise<void>;
}) {
  const { method, settings } = props;
  const [enabled, setEnabled] = useState(settings.enabled);
  const [displayName, setDisplayName] = useState(settings.displayName);
  const [policy, setPolicy] = useState<ThreeDSecurePolicy>(settings.threeDSecurePolicy ?? 'always');
  const [minimum, setMinimum] = useState(settings.minimumAmount === null ? '' : String(settings.minimumAmount));
  const [maximum, setMaximum] = useState(settings.maximumAmount === null ? '' : String(settings.maximumAmount));
  const [currencies, setCurrencies] = useState(settings.currencies.join(', '));
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const number = (value: string) => (value.trim() === '' ? null : Number(value.replace(',', '.')));
  const edit: PaymentMethodEdit = {
    enabled,
    displayName: displayName.trim(),
    threeDSecurePolicy: cardLikeMethods.includes(method) ? policy : null,
    minimumAmount: number(minimum),
    maximumAmount: number(maximum),
    currencies: currencies
      .split(/[\s,]+/)
      .map((code) => code.trim().toUpperCase())
      .filter(Boolean),
  };
  const errors = checkPaymentMethodEdit(method, edit);
  const shown = tried ? errors : {};
  return (
    <Modal
      open
      title={`Edit ${paymentMethodLabels[method]}`}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={async () => {
              setTried(true);
              if (Object.keys(errors).length > 0) return;
              setBusy(true);
              await props.onSave(edit);
              setBusy(false);
            }}
          >
            Save
          </button>
        </>
      }
    >
      <div className="form-grid">
        <CheckboxField label="Enabled" checked={enabled} onChange={setEnabled} />
        <TextField label="Display name" required maxLength={maxDisplayNameLength} value={displayName} error={shown.displayName} onChange={setDisplayName} />
        {cardLikeMethods.includes(method) ? (
          <SelectField
            label="3-D Secure policy"
            value={policy}
            options={threeDSecurePolicies.map((value) => ({ value, label: threeDSecurePolicyLabels[value] }))}
            error={shown.threeDSecurePolicy}
            onChange={setPolicy}
          />
        ) : null}
        <TextField
          label="Minimum amount"
          inputMode="decimal"
          value={minimum}
          error={shown.minimumAmount}
          hint="In each currency's major units; empty for none."
          onChange={setMinimum}
        />
        <TextField label="Maximum amount" inputMode="decimal" value={maximum} error={shown.maximumAmount} hint="Empty for no maximum." onChange={setMaximum} />
        <TextField
          label="Currencies"
          value={currencies}
          error={shown.currencies}
          hint="Three-letter codes the merchant takes, separated by commas."
          onChange={setCurrencies}
        />
      </div>
    </Modal>
  );
}

function HostedPagesPanel(props: {
  detail: ConfigurationDetail;
  canEdit: boolean;
  businessId: string;
  merchantId: string;
  onChanged: () => Promise<unknown>;
  newItemRequest: number;
}) {
  const { detail } = props;
  const [, navigate] = useLocation();
  const [deleting, setDeleting] = useState<{ reference: string; name: string } | null>(null);
  const create = useMutation({
    mutationFn: () =>
      createHostedPage(props.businessId, props.merchantId, {
        configurationId: detail.configurationId,
        name: `Payment page ${detail.hostedPages.length + 1}`,
        design: { ...defaultHostedPageDesign, texts: { ...defaultHostedPageDesign.texts, title: `Pay ${detail.tradeName}`.slice(0, 60) } },
        version: detail.version,
      }),
    onSuccess: async (page) => {
      await props.onChanged();
      navigate(`/configurations/${encodeURIComponent(detail.configurationId)}/hosted-payment-page/${encodeURIComponent(page.reference)}`);
    },
    onError: async (error) => {
      if (conflictChoice(error)) await props.onChanged();
    },
  });
  const handled = useRef(props.newItemRequest);
  useEffect(() => {
    // Shift+N asked for a new page (the first render's count is not a request).
    if (props.newItemRequest === handled.current) return;
    handled.current = props.newItemRequest;
    if (props.canEdit && !create.isPending) create.mutate();
  }, [props.newItemRequest, props.canEdit, create.isPending, create.mutate]);
  const remove = useMutation({
    mutationFn: (reference: string) => deleteHostedPage(props.businessId, props.merchantId, reference, detail.version),
    onSettled: async () => {
      setDeleting(null);
      await props.onChanged();
    },
    onSuccess: () => showToast({ kind: 'success', message: 'Hosted page deleted.' }),
  });
  return (
    <div className="record-section">
      {detail.hostedPages.length === 0 ? (
        <p>This configuration has no hosted payment pages yet.</p>
      ) : (
        <ul className="record-list">
          {detail.hostedPages.map((page) => (
            <li key={page.reference}>
              <a href={`/configurations/${encodeURIComponent(detail.configurationId)}/hosted-payment-page/${encodeURIComponent(page.reference)}`}>
                {page.name}
              </a>
              <span className="record-meta">
                {page.reference} · changed {formatDateTime(page.updatedAt)}
              </span>
              {props.canEdit ? (
                <button type="button" className="button button-ghost" aria-label={`Delete ${page.name}`} onClick={() => setDeleting(page)}>
                  Delete
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {props.canEdit ? (
        <div>
          <button type="button" className="button" disabled={create.isPending} onClick={() => create.mutate()}>
            New hosted page
          </button>
        </div>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this hosted page?"
        text={`'${deleting?.name ?? ''}' is removed; payment links that use it show the default page.`}
        confirmLabel="Delete hosted page"
        cancelLabel="Keep it"
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.reference);
        }}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
