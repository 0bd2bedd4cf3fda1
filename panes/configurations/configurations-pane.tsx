// The configurations of the applied merchant (table kit): Enter opens one, Shift+Enter beside, Shift+N starts the
// 'New configuration' wizard (general → payment methods → switches → review; steps move up, down or to a step).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useLocation } from 'wouter';
import { configurationQueries, createConfiguration } from '../../src/api/configuration-queries.ts';
import type { ConfigurationListItem } from '../../src/contract/configuration-schemas.ts';
import {
  checkConfigurationEdit,
  configurationSwitchLabels,
  configurationSwitchNames,
  defaultConfigurationSwitches,
  maxDescriptionLength,
  maxTradeNameLength,
  paymentMethodLabels,
  type ConfigurationSwitchName,
} from '../../src/contract/configurations.ts';
import { paymentMethods, type PaymentMethod } from '../../src/contract/enumerations.ts';
import { type PaneProps, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { CursorDataTable } from '../../src/ui/data-table/cursor-data-table.tsx';
import type { DataTableColumn, DataTableSort } from '../../src/ui/data-table/data-table.tsx';
import { CheckboxField, TextField } from '../../src/ui/form-field.tsx';
import { Modal } from '../../src/ui/modal.tsx';
import { moveWizardStep, useMerchantContext, type WizardMove } from './configuration-context.ts';
import { tableStatusOf } from '../../src/ui/data-table/table-status.ts';
import { useRowCursor } from '../overview/row-cursor.ts';
import '../../src/ui/data-table/data-table.css';
import '../../src/ui/form-field.css';
import './configurations.css';

const columns: readonly DataTableColumn<ConfigurationListItem>[] = [
  { id: 'tradeName', header: 'Trade name', sortField: 'tradeName', width: 'minmax(12rem, 2fr)', cell: (row) => row.tradeName },
  { id: 'configurationId', header: 'Configuration ID', sortField: 'configurationId', width: 'minmax(9rem, 1fr)', cell: (row) => row.configurationId },
  { id: 'description', header: 'Description', width: 'minmax(12rem, 2fr)', cell: (row) => row.description },
  {
    id: 'methods',
    header: 'Payment methods',
    width: 'minmax(10rem, 2fr)',
    cell: (row) =>
      row.enabledPaymentMethods.length === 0
        ? 'None'
        : row.enabledPaymentMethods.map((method) => paymentMethodLabels[method as PaymentMethod] ?? method).join(', '),
  },
  { id: 'pages', header: 'Hosted pages', align: 'end', width: '7rem', cell: (row) => row.hostedPageCount },
  { id: 'vt', header: 'Virtual terminal', width: '8rem', cell: (row) => (row.switches.virtualTerminalMenuEnabled ? 'On' : 'Off') },
];

export const wizardSteps = ['General', 'Payment methods', 'Switches', 'Review'] as const;

type WizardDraft = { tradeName: string; description: string; paymentMethods: PaymentMethod[]; switches: Record<ConfigurationSwitchName, boolean> };
const emptyDraft = (): WizardDraft => ({ tradeName: '', description: '', paymentMethods: ['card'], switches: { ...defaultConfigurationSwitches } });

export function ConfigurationsPane(_props: PaneProps) {
  const merchant = useMerchantContext();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [sort, setSort] = useState<DataTableSort>({ field: 'tradeName', descending: false });
  const query = { sort: `${sort.descending ? '-' : ''}${sort.field}`, pagesize: '100' };
  const list = useQuery({ ...configurationQueries.list(merchant?.businessId ?? '', merchant?.merchantId ?? '', query), enabled: merchant !== null });
  const [wizardOpen, setWizardOpen] = useState(false);
  const canCreate = merchant?.can('Mapi.Configurations.Update') ?? false;
  const rows = list.data?.results ?? [];
  const { rowHandlers, table } = useRowCursor(rows, (row) => `/configurations/${encodeURIComponent(row.configurationId)}`);
  usePaneCapabilities({
    ...(canCreate && !wizardOpen ? { newItem: () => setWizardOpen(true) } : {}),
    ...rowHandlers(!wizardOpen),
  });

  if (!merchant) {
    return (
      <div className="record-pane">
        <h1>Configurations</h1>
        <p>
          Configurations belong to a merchant. <a href="/context?route=%2Fconfigurations">Choose a merchant</a> to see its configurations.
        </p>
      </div>
    );
  }
  return (
    <div className="record-pane">
      <header className="record-header">
        <h1>Configurations of {merchant.merchantTitle}</h1>
        <div className="record-tools">
          {canCreate ? (
            <button type="button" className="button button-primary" onClick={() => setWizardOpen(true)}>
              New configuration
            </button>
          ) : null}
        </div>
      </header>
      <CursorDataTable
        {...table}
        resetKey={String(list.dataUpdatedAt)}
        caption="Configurations"
        columns={columns}
        rowKey={(row) => row.configurationId}
        rowHeader="tradeName"
        status={tableStatusOf(list)}
        emptyMessage="This merchant has no configurations yet."
        errorMessage="The configurations could not be loaded."
        sort={sort}
        onSortChange={setSort}
        totalRows={list.data?.numberOfResults ?? 0}
      />
      {wizardOpen ? (
        <NewConfigurationWizard
          businessId={merchant.businessId}
          merchantId={merchant.merchantId}
          onClose={() => setWizardOpen(false)}
          onCreated={(configurationId) => {
            setWizardOpen(false);
            void queryClient.invalidateQueries({ queryKey: configurationQueries.all });
            showToast({ kind: 'success', message: 'Configuration created.' });
            navigate(`/configurations/${encodeURIComponent(configurationId)}`);
          }}
        />
      ) : null}
    </div>
  );
}

export function NewConfigurationWizard(props: { businessId: string; merchantId: string; onClose: () => void; onCreated: (configurationId: string) => void }) {
  const [step, setStep] = useState(0);
  const [draft, setDraft] = useState<WizardDraft>(emptyDraft);
  const [tried, setTried] = useState(false);
  const stepsId = useId();
  const create = useMutation({
    mutationFn: () =>
      createConfiguration(props.businessId, props.merchantId, {
        tradeName: draft.tradeName.trim(),
        description: draft.description.trim(),
        switches: draft.switches,
        paymentMethods: draft.paymentMethods,
      }),
    onSuccess: (created) => props.onCreated(created.configurationId),
  });
  const errors = checkConfigurationEdit({ tradeName: draft.tradeName.trim(), description: draft.description.trim() });
  const generalValid = Object.keys(errors).length === 0;
  const go = (move: WizardMove) => {
    const target = moveWizardStep(step, move, wizardSteps.length);
    // Beyond the first step only with a valid first step (the wizard's own validation).
    if (target > 0 && !generalValid) {
      setTried(true);
      setStep(0);
      return;
    }
    setStep(target);
  };
  const shown = tried ? errors : {};
  const last = step === wizardSteps.length - 1;
  return (
    <Modal
      open
      title="New configuration"
      size="lg"
      onClose={props.onClose}
      description={
        <ol className="wizard-steps" id={stepsId} aria-label="Steps">
          {wizardSteps.map((label, index) => (
            <li key={label} aria-current={index === step ? 'step' : undefined}>
              <button type="button" className="button button-ghost" onClick={() => go({ kind: 'to', step: index })}>
                {index + 1}. {label}
              </button>
            </li>
          ))}
        </ol>
      }
      footer={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          {step > 0 ? (
            <button type="button" className="button" onClick={() => go({ kind: 'previous' })}>
              Back
            </button>
          ) : null}
          {last ? (
            <button type="button" className="button button-primary" disabled={create.isPending || !generalValid} onClick={() => create.mutate()}>
              Create configuration
            </button>
          ) : (
            <button type="button" className="button button-primary" onClick={() => go({ kind: 'next' })}>
              Next
            </button>
          )}
        </>
      }
    >
      {step === 0 ? (
        <div className="form-grid">
          <TextField
            label="Trade name"
            required
            maxLength={maxTradeNameLength}
            value={draft.tradeName}
            error={shown.tradeName}
            hint="The name shoppers see on the payment page and their statements."
            onChange={(tradeName) => setDraft({ ...draft, tradeName })}
          />
          <TextField
            label="Description"
            multiline
            maxLength={maxDescriptionLength}
            value={draft.description}
            error={shown.description}
            onChange={(description) => setDraft({ ...draft, description })}
          />
        </div>
      ) : null}
      {step === 1 ? (
        <fieldset className="form-grid">
          <legend>Payment methods to switch on</legend>
          {paymentMethods.map((method) => (
            <CheckboxField
              key={method}
              label={paymentMethodLabels[method]}
              checked={draft.paymentMethods.includes(method)}
              onChange={(checked) =>
                setDraft({ ...draft, paymentMethods: checked ? [...draft.paymentMethods, method] : draft.paymentMethods.filter((entry) => entry !== method) })
              }
            />
          ))}
        </fieldset>
      ) : null}
      {step === 2 ? (
        <fieldset className="form-grid">
          <legend>Switches</legend>
          {configurationSwitchNames.map((name) => (
            <CheckboxField
              key={name}
              label={configurationSwitchLabels[name]}
              checked={draft.switches[name]}
              onChange={(checked) => setDraft({ ...draft, switches: { ...draft.switches, [name]: checked } })}
            />
          ))}
        </fieldset>
      ) : null}
      {step === 3 ? (
        <dl className="detail-grid">
          <div>
            <dt>Trade name</dt>
            <dd>{draft.tradeName}</dd>
          </div>
          <div>
            <dt>Description</dt>
            <dd>{draft.description || 'None'}</dd>
          </div>
          <div>
            <dt>Payment methods</dt>
            <dd>{draft.paymentMethods.length === 0 ? 'None' : draft.paymentMethods.map((method) => paymentMethodLabels[method]).join(', ')}</dd>
          </div>
          <div>
            <dt>Switches on</dt>
            <dd>
              {configurationSwitchNames
                .filter((name) => draft.switches[name])
                .map((name) => configurationSwitchLabels[name])
                .join(', ') || 'None'}
            </dd>
          </div>
        </dl>
      ) : null}
    </Modal>
  );
}
