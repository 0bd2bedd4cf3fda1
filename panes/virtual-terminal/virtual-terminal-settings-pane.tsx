// The virtual terminal's settings: default currency, order confirmation emails, saved cards and their
// limit, the default order-line type and whether a shipping address is asked. Read with Portal.Settings.Read, saved
// with Portal.Settings.Update and the configuration's shared version (stale → the 409 dialog). Ctrl+Enter saves.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { api } from '../../src/api/api-client.ts';
import { isApiError } from '../../src/api/api-error.ts';
import type { ContextSelections } from '../../src/contract/context.ts';
import { orderLineTypes } from '../../src/contract/enumerations.ts';
import { maxSavedCardLimit, type VirtualTerminalSettings } from '../../src/contract/virtual-terminal.ts';
import { contextStore } from '../../src/state/context-store.ts';
import { permissionScope, sessionStore } from '../../src/state/session-store.ts';
import { type PaneProps, useLeaveFormGuard, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import './virtual-terminal.css';

const e = encodeURIComponent;
type Editable = Omit<VirtualTerminalSettings, 'configurationId' | 'currencies' | 'version' | 'virtualTerminalMenuEnabled'>;
const editableOf = (settings: VirtualTerminalSettings): Editable => ({
  defaultCurrency: settings.defaultCurrency,
  orderConfirmationEmails: settings.orderConfirmationEmails,
  savedCardsAllowed: settings.savedCardsAllowed,
  savedCardLimit: settings.savedCardLimit,
  defaultOrderLineType: settings.defaultOrderLineType,
  askShippingAddress: settings.askShippingAddress,
});
const lineTypeLabel: Record<string, string> = {
  digitalItem: 'Digital item',
  discount: 'Discount',
  giftCard: 'Gift card',
  paymentCost: 'Payment cost',
  physicalItem: 'Physical item',
  shippingCost: 'Shipping cost',
  shopCredit: 'Shop credit',
};

export function VirtualTerminalSettingsPane({ params }: PaneProps) {
  const configurationId = params.configurationId ?? '';
  const { applied } = useSnapshot(contextStore);
  const { permissions: permissionsByScope } = useSnapshot(sessionStore);
  const permissions = permissionsByScope[permissionScope(applied as ContextSelections).key] ?? [];
  const canUpdate = permissions.includes('Portal.Settings.Update');
  const selections = applied as ContextSelections;
  const base =
    selections.business?.id && selections.merchant?.id
      ? `/businesses/${e(selections.business.id)}/merchants/${e(selections.merchant.id)}/configurations/${e(configurationId)}/virtual-terminal/settings`
      : '';
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['virtualTerminal', base, 'settingsPage'],
    queryFn: ({ signal }) => api.get<VirtualTerminalSettings>(base, { signal }),
    enabled: base !== '',
  });
  const [edit, setEdit] = useState<Editable | null>(null);
  const [limitText, setLimitText] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (settings.data && edit === null) {
      setEdit(editableOf(settings.data));
      setLimitText(String(settings.data.savedCardLimit));
    }
  }, [settings.data, edit]);
  const dirty =
    settings.data !== undefined &&
    edit !== null &&
    JSON.stringify({ ...edit, savedCardLimit: limitText }) !==
      JSON.stringify({ ...editableOf(settings.data), savedCardLimit: String(settings.data.savedCardLimit) });
  useLeaveFormGuard(dirty && !saving);
  const limit = Number(limitText);
  const limitProblem =
    !/^\d{1,2}$/.test(limitText) || limit < 1 || limit > maxSavedCardLimit ? `Saved card limit is a whole number from 1 to ${maxSavedCardLimit}` : null;

  const save = async () => {
    if (!settings.data || !edit || limitProblem || saving || !canUpdate) return;
    setSaving(true);
    try {
      const saved = await api.put<VirtualTerminalSettings>(
        base,
        { ...edit, savedCardLimit: limit, version: settings.data.version },
        {
          onConflictConfirmed: async () => {
            await queryClient.invalidateQueries({ queryKey: ['virtualTerminal', base] });
            setEdit(null);
            return undefined as unknown as VirtualTerminalSettings;
          },
        },
      );
      if (saved) {
        queryClient.setQueryData(['virtualTerminal', base, 'settingsPage'], saved);
        void queryClient.invalidateQueries({ queryKey: ['virtualTerminal'] });
        setEdit(editableOf(saved));
        setLimitText(String(saved.savedCardLimit));
        showToast({ kind: 'success', message: 'Virtual terminal settings saved.' });
      }
    } catch (error) {
      if (!isApiError(error)) throw error;
    } finally {
      setSaving(false);
    }
  };
  usePaneCapabilities(canUpdate && dirty ? { saveSettings: () => void save() } : {});

  if (!base)
    return (
      <div className="vt-pane">
        <h1>Virtual terminal settings</h1>
        <p role="alert">Choose a merchant and one of its configurations as your context.</p>
      </div>
    );
  if (settings.isPending || (settings.data && !edit))
    return (
      <div className="vt-pane">
        <h1>Virtual terminal settings</h1>
        <Skeleton lines={6} label="Loading the settings" />
      </div>
    );
  if (settings.isError || !settings.data || !edit) {
    const status = isApiError(settings.error) ? settings.error.status : 0;
    return (
      <div className="vt-pane">
        <h1>Virtual terminal settings</h1>
        <p role="alert">
          {status === 404
            ? 'The requested record was not found.'
            : status === 403
              ? 'You do not have the correct permissions.'
              : 'The settings could not be loaded.'}
        </p>
      </div>
    );
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };
  const disabled = !canUpdate;
  return (
    <form className="vt-pane vt-settings" aria-label="Virtual terminal settings" onSubmit={onSubmit} onKeyDown={onKeyDown} noValidate>
      <h1>Virtual terminal settings</h1>
      <p className="vt-hint">
        Configuration {settings.data.configurationId} · version {settings.data.version}
        {canUpdate ? ' · Ctrl+Enter saves' : ' · read only'}
      </p>
      {settings.data.virtualTerminalMenuEnabled ? null : (
        <p role="status">The virtual terminal is switched off for this configuration: it takes no orders until its switch is turned on in the configuration.</p>
      )}
      <div className="vt-field">
        <label htmlFor="vt-default-currency">Default currency</label>
        <select
          id="vt-default-currency"
          disabled={disabled}
          value={edit.defaultCurrency ?? ''}
          onChange={(event) => setEdit({ ...edit, defaultCurrency: event.target.value || null })}
        >
          <option value="">First offered ({settings.data.currencies[0] ?? '—'})</option>
          {settings.data.currencies.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </div>
      <label className="vt-check">
        <input
          type="checkbox"
          disabled={disabled}
          checked={edit.orderConfirmationEmails}
          onChange={(event) => setEdit({ ...edit, orderConfirmationEmails: event.target.checked })}
        />{' '}
        Send order confirmation emails (every order then needs a valid email address)
      </label>
      <label className="vt-check">
        <input
          type="checkbox"
          disabled={disabled}
          checked={edit.savedCardsAllowed}
          onChange={(event) => setEdit({ ...edit, savedCardsAllowed: event.target.checked })}
        />{' '}
        Agents may save cards for stored customers
      </label>
      <div className="vt-field">
        <label htmlFor="vt-saved-card-limit">Saved card limit per customer</label>
        <input
          id="vt-saved-card-limit"
          type="number"
          min={1}
          max={maxSavedCardLimit}
          disabled={disabled}
          value={limitText}
          aria-invalid={limitProblem ? true : undefined}
          aria-describedby={limitProblem ? 'vt-limit-error' : undefined}
          onChange={(event) => setLimitText(event.target.value.replace(/\D/g, '').slice(0, 2))}
        />
        {limitProblem ? (
          <span id="vt-limit-error" className="vt-error">
            {limitProblem}
          </span>
        ) : null}
      </div>
      <div className="vt-field">
        <label htmlFor="vt-default-line-type">Default order-line type</label>
        <select
          id="vt-default-line-type"
          disabled={disabled}
          value={edit.defaultOrderLineType}
          onChange={(event) => setEdit({ ...edit, defaultOrderLineType: event.target.value })}
        >
          {orderLineTypes.map((value) => (
            <option key={value} value={value}>
              {lineTypeLabel[value] ?? value}
            </option>
          ))}
        </select>
      </div>
      <label className="vt-check">
        <input
          type="checkbox"
          disabled={disabled}
          checked={edit.askShippingAddress}
          onChange={(event) => setEdit({ ...edit, askShippingAddress: event.target.checked })}
        />{' '}
        Ask for a shipping address
      </label>
      {canUpdate ? (
        <div className="vt-actions">
          <button type="submit" className="button button-primary" disabled={saving || !dirty}>
            {saving ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      ) : null}
    </form>
  );
}
