// A configuration's API keys: create (name, description, expiry; after a step-up), shown once with copy and download; replace in
// two steps (generate a new key, shown once, both valid; then complete, choosing when the old key stops: now,
// in 1 hour, 24 hours or 7 days); revoke at any time with a confirmation.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  completeApiKeyReplacement,
  configurationPath,
  configurationQueries,
  createApiKey,
  revokeApiKey,
  startApiKeyReplacement,
} from '../../src/api/configuration-queries.ts';
import type { ApiKeyAnswer } from '../../src/contract/configuration-schemas.ts';
import {
  checkApiKeyEdit,
  maxApiKeyDescriptionLength,
  maxApiKeyNameLength,
  oldKeyStopLabels,
  oldKeyStopOptions,
  type OldKeyStop,
} from '../../src/contract/configurations.ts';
import { formatDateTime } from '../../src/format/dates.ts';
import { showToast } from '../../src/state/toast-store.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { SelectField, TextField } from '../../src/ui/form-field.tsx';
import { Modal } from '../../src/ui/modal.tsx';
import { useStepUp } from '../step-up/step-up.tsx';

const statusLabels = { active: 'Active', expiring: 'Expires soon', expired: 'Expired', revoked: 'Revoked' } as const;
const statusTones = { active: 'success', expiring: 'warning', expired: 'neutral', revoked: 'danger' } as const;

export function ApiKeysPanel({
  businessId,
  merchantId,
  configurationId,
  newKeyRequest = 0,
}: {
  businessId: string;
  merchantId: string;
  configurationId: string;
  newKeyRequest?: number;
}) {
  const queryClient = useQueryClient();
  const path = configurationPath(businessId, merchantId, configurationId);
  const list = useQuery(configurationQueries.apiKeys(businessId, merchantId, configurationId));
  const [creating, setCreating] = useState(false);
  const handled = useRef(newKeyRequest);
  useEffect(() => {
    // Shift+N on this tab: a new key (the first render's count is not a request).
    if (newKeyRequest === handled.current) return;
    handled.current = newKeyRequest;
    setCreating(true);
  }, [newKeyRequest]);
  const [shown, setShown] = useState<{ title: string; secret: string; completeFor?: ApiKeyAnswer } | null>(null);
  const [completing, setCompleting] = useState<ApiKeyAnswer | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyAnswer | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: configurationQueries.apiKeys(businessId, merchantId, configurationId).queryKey });
  // A new secret (a new key or a replacement) needs a recent step-up: the dialog asks for the password and the call is made again.
  const stepUp = useStepUp();
  const replace = useMutation({
    mutationFn: (key: ApiKeyAnswer) => stepUp.run(() => startApiKeyReplacement(path, key.id)),
    onSuccess: (created, key) => {
      void refresh();
      setShown({ title: `New key for '${key.name}'`, secret: created.secret, completeFor: key });
    },
  });
  const revoke = useMutation({
    mutationFn: (key: ApiKeyAnswer) => revokeApiKey(path, key.id),
    onSettled: () => {
      setRevoking(null);
      void refresh();
    },
    onSuccess: () => showToast({ kind: 'success', message: 'API key revoked.' }),
  });
  const keys = list.data?.results ?? [];
  const pendingFor = (key: ApiKeyAnswer) => keys.find((candidate) => candidate.replacesId === key.id && candidate.status !== 'revoked');

  return (
    <div className="record-section">
      {list.isError ? <p role="alert">The API keys could not be loaded.</p> : null}
      {keys.length === 0 && list.isSuccess ? <p>This configuration has no API keys yet.</p> : null}
      {keys.length > 0 ? (
        <table className="method-table">
          <caption className="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Status</th>
              <th scope="col">Expires</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => {
              const pending = pendingFor(key);
              const usable = key.status === 'active' || key.status === 'expiring';
              return (
                <tr key={key.id}>
                  <th scope="row">
                    {key.name}
                    {key.description ? <div className="record-meta">{key.description}</div> : null}
                    {key.replacesId ? <div className="record-meta">Replacement waiting to be completed</div> : null}
                  </th>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>
                    <span className="status-chip" data-tone={statusTones[key.status]}>
                      {statusLabels[key.status]}
                    </span>
                  </td>
                  <td>{key.expiresAt ? formatDateTime(key.expiresAt) : 'Never'}</td>
                  <td>{formatDateTime(key.createdAt)}</td>
                  <td>
                    <div className="record-tools">
                      {usable && !key.replacesId && !pending ? (
                        <button
                          type="button"
                          className="button"
                          disabled={replace.isPending}
                          onClick={() => replace.mutate(key)}
                          aria-label={`Replace ${key.name}`}
                        >
                          Replace
                        </button>
                      ) : null}
                      {usable && pending ? (
                        <button
                          type="button"
                          className="button button-primary"
                          onClick={() => setCompleting(key)}
                          aria-label={`Complete update of ${key.name}`}
                        >
                          Complete update
                        </button>
                      ) : null}
                      {key.status !== 'revoked' && key.status !== 'expired' ? (
                        <button type="button" className="button button-ghost" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                          Revoke
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      <div>
        <button type="button" className="button" onClick={() => setCreating(true)}>
          New API key
        </button>
      </div>

      {creating ? (
        <NewApiKeyDialog
          path={path}
          stepUp={stepUp.run}
          onClose={() => setCreating(false)}
          onCreated={(secret, name) => {
            setCreating(false);
            void refresh();
            setShown({ title: `API key '${name}'`, secret });
          }}
        />
      ) : null}
      {shown ? (
        <SecretDialog
          title={shown.title}
          secret={shown.secret}
          onClose={() => {
            const next = shown.completeFor;
            setShown(null);
            if (next) setCompleting(next);
          }}
        />
      ) : null}
      {completing ? (
        <CompleteReplacementDialog
          path={path}
          apiKey={completing}
          onClose={() => setCompleting(null)}
          onDone={() => {
            setCompleting(null);
            void refresh();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this API key?"
        text={`'${revoking?.name ?? ''}' (${revoking?.prefix ?? ''}…) stops working at once; a shop still using it can no longer take payments.`}
        confirmLabel="Revoke API key"
        cancelLabel="Keep it"
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking);
        }}
        onCancel={() => setRevoking(null)}
      />
      {stepUp.dialog}
    </div>
  );
}

function NewApiKeyDialog(props: {
  path: string;
  stepUp: <T>(call: () => Promise<T>) => Promise<T>;
  onClose: () => void;
  onCreated: (secret: string, name: string) => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [expiry, setExpiry] = useState('');
  const [tried, setTried] = useState(false);
  const expiresAt = expiry ? new Date(`${expiry}T23:59:59`).toISOString() : null;
  const errors = checkApiKeyEdit({ name: name.trim(), description: description.trim(), expiresAt }, new Date());
  const shownErrors = tried ? errors : {};
  const create = useMutation({
    mutationFn: () => props.stepUp(() => createApiKey(props.path, { name: name.trim(), description: description.trim(), expiresAt })),
    onSuccess: (created) => props.onCreated(created.secret, created.apiKey.name),
  });
  return (
    <Modal
      open
      title="New API key"
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={create.isPending}
            onClick={() => {
              setTried(true);
              if (Object.keys(errors).length === 0) create.mutate();
            }}
          >
            Create API key
          </button>
        </>
      }
    >
      <div className="form-grid">
        <TextField label="Name" required maxLength={maxApiKeyNameLength} value={name} error={shownErrors.name} onChange={setName} />
        <TextField label="Description" maxLength={maxApiKeyDescriptionLength} value={description} error={shownErrors.description} onChange={setDescription} />
        <TextField
          label="Expiry date"
          type="date"
          value={expiry}
          error={shownErrors.expiresAt}
          hint="Leave empty for a key that never expires. Owners are emailed 7 days before."
          onChange={setExpiry}
        />
      </div>
    </Modal>
  );
}

function SecretDialog(props: { title: string; secret: string; onClose: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      showToast({ kind: 'success', message: 'API key copied to the clipboard.' });
    } catch {
      showToast({ kind: 'danger', message: 'The key could not be copied. Select it and copy it yourself.' });
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${props.secret}\n`], { type: 'text/plain' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = 'api-key.txt';
    anchor.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Modal
      open
      title={props.title}
      onClose={props.onClose}
      closeOnOutsideClick={false}
      footer={
        <>
          <button type="button" className="button" onClick={() => void copy()}>
            Copy key
          </button>
          <button type="button" className="button" onClick={download}>
            Download key
          </button>
          <button type="button" className="button button-primary" onClick={props.onClose}>
            I have stored the key
          </button>
        </>
      }
    >
      <p>This is the only time the key is shown. Store it in the shop's configuration now.</p>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: kept as it was: the key's text is found by this name; a role that allows it would change what screen readers announce */}
      <p className="secret-box" aria-label="API key">
        {props.secret}
      </p>
    </Modal>
  );
}

function CompleteReplacementDialog(props: { path: string; apiKey: ApiKeyAnswer; onClose: () => void; onDone: () => void }) {
  const [stop, setStop] = useState<OldKeyStop>('24h');
  const complete = useMutation({
    mutationFn: () => completeApiKeyReplacement(props.path, props.apiKey.id, stop),
    onSuccess: () => {
      showToast({
        kind: 'success',
        message: stop === 'now' ? 'The old key has stopped working.' : `The old key stops working ${oldKeyStopLabels[stop].toLowerCase()}.`,
      });
      props.onDone();
    },
  });
  return (
    <Modal
      open
      title={`Complete the update of '${props.apiKey.name}'`}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Later
          </button>
          <button type="button" className="button button-primary" disabled={complete.isPending} onClick={() => complete.mutate()}>
            Complete update
          </button>
        </>
      }
    >
      <p>Both keys work until you complete the update. Once the shop uses the new key, choose when the old one stops working.</p>
      <SelectField
        label="The old key stops working"
        value={stop}
        options={oldKeyStopOptions.map((value) => ({ value, label: oldKeyStopLabels[value] }))}
        onChange={setStop}
      />
    </Modal>
  );
}
