// The hosted payment page editor (editor layout: no side menu, full width): the form on one side, the live preview
// on the other, redrawn on every keystroke and toggle at desktop or phone width. Logo through the image pipeline
// (validate, resize, upload, delete the old one, set the reference; removal asks first); colours with a WCAG AA
// contrast warning; a font from the fixed list; texts with the limits the server enforces; the payment-method
// order; order lines on or off; return URLs. Saving sends the configuration's shared version (409 → Stay/Discard).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { isApiError } from '../../src/api/api-error.ts';
import { configurationPath, configurationQueries, deleteImage, imageUrl, saveHostedPage, uploadImage } from '../../src/api/configuration-queries.ts';
import type { ConfigurationDetail, HostedPageAnswer } from '../../src/contract/configuration-schemas.ts';
import {
  checkHostedPage,
  contrastWarnings,
  hostedPageColourLabels,
  hostedPageColourNames,
  hostedPageFonts,
  hostedPageTextLabels,
  hostedPageTextLimits,
  maxHostedPageNameLength,
  maxUrlLength,
  paymentMethodLabels,
  previewWidthLabels,
  previewWidths,
  type HostedPageDesign,
  type PreviewWidth,
} from '../../src/contract/configurations.ts';
import type { PaymentMethod } from '../../src/contract/enumerations.ts';
import { formatHostedPageMoney, shopperPaymentOptions, type HostedPageOrderLine, type HostedPageView } from '../../src/contract/hosted-page-render.ts';
import { type PaneProps, useLeaveFormGuard, usePaneCapabilities } from '../../src/state/pane-scope.tsx';
import { showToast } from '../../src/state/toast-store.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { CheckboxField, SelectField, TextField } from '../../src/ui/form-field.tsx';
import { Skeleton } from '../../src/ui/skeleton.tsx';
import { useMerchantContext } from './configuration-context.ts';
import { HostedPagePreview } from './hosted-page-preview.tsx';
import { resizeImage, runImagePipeline } from './image-pipeline.ts';
import { RecordChangedNotice, useVersionedDraft } from '../../src/ui/record-changed.tsx';
import '../../src/ui/form-field.css';
import './configurations.css';

type Draft = { name: string; design: HostedPageDesign };
const draftOf = (page: HostedPageAnswer): Draft => ({ name: page.name, design: page.design as HostedPageDesign });

/**
 * What the preview shows around the design: a sample order, and the payment choices exactly as the shopper's page
 * makes them (shopperPaymentOptions: what can be paid there, the other switched-on methods named as not available).
 */
/** The preview's sample order, held as the shopper page's job holds its lines (unit prices in minor units). */
const previewOrderLines: readonly HostedPageOrderLine[] = [
  { description: 'Sample item', quantity: 2, unitPriceMinor: 1750, currency: 'GBP' },
  { description: 'Delivery', quantity: 1, unitPriceMinor: 750, currency: 'GBP' },
];

export function previewView(draft: Draft, configuration: ConfigurationDetail | undefined, merchantName: string): HostedPageView {
  const options = shopperPaymentOptions(
    draft.design.paymentMethodOrder,
    (configuration?.paymentMethods ?? []).map((entry) => ({
      method: entry.paymentMethod,
      enabled: entry.configuration.enabled,
      displayName: entry.configuration.displayName,
      minimumAmountMilli: null,
      maximumAmountMilli: null,
      currencies: [],
    })),
    null,
  );
  return {
    design: draft.design,
    merchantName: configuration?.tradeName ?? merchantName,
    amount: formatHostedPageMoney(
      previewOrderLines.reduce((total, line) => total + line.unitPriceMinor * line.quantity, 0),
      'GBP',
    ),
    orderNumber: 'PREVIEW-0001',
    orderLines: previewOrderLines,
    paymentMethods: options.payable,
    unavailableMethods: options.unavailable,
    ...(options.reason ? { unpayableReason: options.reason } : {}),
    mode: 'preview',
  };
}

export function HostedPageEditorPane({ params }: PaneProps) {
  const configurationId = params.configurationId ?? '';
  const reference = params.hostedPaymentPageReference ?? '';
  const merchant = useMerchantContext();
  const businessId = merchant?.businessId ?? '';
  const merchantId = merchant?.merchantId ?? '';
  const queryClient = useQueryClient();
  const pageOptions = configurationQueries.hostedPage(businessId, merchantId, reference);
  const page = useQuery({ ...pageOptions, enabled: merchant !== null });
  const configuration = useQuery({ ...configurationQueries.detail(businessId, merchantId, configurationId), enabled: merchant !== null });
  const [width, setWidth] = useState<PreviewWidth>('desktop');
  const [uploading, setUploading] = useState(false);
  const [confirmRemoveLogo, setConfirmRemoveLogo] = useState(false);
  const titleId = useId();

  // The page as the edits started from it (its version is what a save sends): a newer version arriving by a live
  // refresh replaces an unedited draft, and an edited one shows 'This record changed' (record-changed.tsx).
  const editor = useVersionedDraft(page.data, draftOf, { alwaysOpen: true });
  const { draft, setDraft, dirty, theirs, tried, setTried } = editor;
  useLeaveFormGuard(dirty);
  const submitRef = useRef<() => void>(() => undefined);
  // The preview width and the logo's removal are commands (hosted-page-commands.ts); the buttons call these too.
  const showWidth = (next: PreviewWidth) => setWidth(next);
  const askRemoveLogo = () => setConfirmRemoveLogo(true);
  const hasLogo = Boolean(draft?.design.logoImageReference);
  usePaneCapabilities({
    ...(dirty ? { save: () => submitRef.current() } : {}),
    ...(draft ? { previewWidth: (argument?: number) => showWidth(previewWidths[argument ?? 0] ?? 'desktop') } : {}),
    ...(hasLogo && !uploading ? { removeLogo: askRemoveLogo } : {}),
  });

  const save = useMutation({
    mutationFn: (values: { draft: Draft; version: number }) =>
      saveHostedPage(businessId, merchantId, reference, { ...values.draft, name: values.draft.name.trim(), version: values.version }),
    onSuccess: (answer) => {
      queryClient.setQueryData(pageOptions.queryKey, answer);
      void queryClient.invalidateQueries({ queryKey: configurationQueries.detail(businessId, merchantId, configurationId).queryKey });
      // The form starts again from the saved page (now the query's).
      editor.stop();
      setTried(false);
      showToast({ kind: 'success', message: 'Hosted page saved.' });
    },
    onError: async (error) => {
      if (!isApiError(error)) return;
      if (error.kind === 'conflictKept') editor.conflictKept(await queryClient.fetchQuery({ ...pageOptions, staleTime: 0 }));
      else if (error.kind === 'conflictDiscarded') editor.stop();
    },
  });

  if (!merchant)
    return (
      <div className="record-pane">
        <h1>Hosted payment page</h1>
        <p>
          Hosted pages belong to a merchant. <a href="/context">Choose a merchant</a> first.
        </p>
      </div>
    );
  if (page.isError) {
    const notFound = isApiError(page.error) && page.error.status === 404;
    return (
      <div className="record-pane">
        <h1>Hosted payment page {reference}</h1>
        <p role="alert">{notFound ? 'The requested record was not found.' : 'The hosted page could not be loaded.'}</p>
      </div>
    );
  }
  if (!draft || !page.data)
    return (
      <div className="record-pane">
        <Skeleton lines={8} label="Loading the hosted page" />
      </div>
    );
  const { design } = draft;
  const setDesign = (patch: Partial<HostedPageDesign>) => setDraft({ ...draft, design: { ...design, ...patch } });
  const errors = checkHostedPage(draft.name.trim(), design);
  const shown = tried ? errors : {};
  const warnings = contrastWarnings(design.colours);
  const ownerPath = configurationPath(businessId, merchantId, configurationId);
  const enabledMethods = (configuration.data?.paymentMethods ?? []).filter((entry) => entry.configuration.enabled).map((entry) => entry.paymentMethod);
  const order: PaymentMethod[] = [...design.paymentMethodOrder, ...enabledMethods.filter((method) => !design.paymentMethodOrder.includes(method))];
  const moveMethod = (index: number, step: -1 | 1) => {
    const next = [...order];
    const target = index + step;
    if (target < 0 || target >= next.length) return;
    [next[index], next[target]] = [next[target] as PaymentMethod, next[index] as PaymentMethod];
    setDesign({ paymentMethodOrder: next });
  };
  const submit = () => {
    setTried(true);
    if (Object.keys(errors).length > 0) return;
    save.mutate({ draft, version: editor.version() });
  };
  submitRef.current = submit;
  const pickLogo = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    try {
      const next = await runImagePipeline(file, design.logoImageReference, {
        resize: resizeImage,
        upload: (body) => uploadImage(ownerPath, body),
        deleteOld: (old) => deleteImage(ownerPath, old),
        notify: (message) => showToast({ kind: 'danger', message }),
      });
      if (next) setDesign({ logoImageReference: next });
    } catch {
      // The HTTP client has told the user what went wrong.
    } finally {
      setUploading(false);
    }
  };

  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: kept as it was: a role that allows the name (a region) would add a landmark to what screen readers announce
    <div className="editor-pane" aria-labelledby={titleId}>
      <form
        className="editor-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <header className="record-header">
          <h1 id={titleId}>{draft.name || 'Hosted payment page'}</h1>
          <div className="record-tools">
            <a className="button" href={`/configurations/${encodeURIComponent(configurationId)}?tab=hostedPages`}>
              Back to the configuration
            </a>
            <button type="submit" className="button button-primary" disabled={save.isPending || !dirty}>
              Save
            </button>
          </div>
        </header>
        <RecordChangedNotice what="hosted page or its configuration" editor={editor} />
        {theirs ? (
          <p className="form-warning" role="status">
            Someone else saved this page or its configuration meanwhile (version {theirs.version}). Saving again replaces their version with yours.
          </p>
        ) : null}
        {Object.keys(shown).length > 0 ? (
          <div className="form-summary" role="alert">
            {Object.values(shown).map((message) => (
              <div key={message}>{message}</div>
            ))}
          </div>
        ) : null}
        <TextField
          label="Name"
          required
          maxLength={maxHostedPageNameLength}
          value={draft.name}
          error={shown.name}
          onChange={(name) => setDraft({ ...draft, name })}
        />

        <fieldset className="record-section">
          <legend>Logo</legend>
          {design.logoImageReference ? (
            <img className="logo-thumb" src={imageUrl(design.logoImageReference)} alt="Current logo" />
          ) : (
            <p className="record-meta">No logo.</p>
          )}
          <div className="form-field">
            <label htmlFor={`${titleId}-logo`}>Upload a logo (JPEG or PNG, at most 5 MB)</label>
            <input
              id={`${titleId}-logo`}
              type="file"
              accept="image/jpeg,image/png"
              disabled={uploading}
              onChange={(event) => {
                void pickLogo(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
          </div>
          {design.logoImageReference ? (
            <div>
              <button type="button" className="button" disabled={uploading} onClick={askRemoveLogo}>
                Remove logo
              </button>
            </div>
          ) : null}
        </fieldset>

        <fieldset className="record-section">
          <legend>Colours</legend>
          <div className="colour-row">
            {hostedPageColourNames.map((name) => (
              <TextField
                key={name}
                label={hostedPageColourLabels[name]}
                type="color"
                value={design.colours[name].toLowerCase()}
                error={shown[`colours.${name}`]}
                onChange={(value) => setDesign({ colours: { ...design.colours, [name]: value.toUpperCase() } })}
              />
            ))}
          </div>
          {warnings.map((warning) => (
            <p key={warning} className="form-warning" role="status">
              {warning}
            </p>
          ))}
        </fieldset>

        <SelectField
          label="Font"
          value={design.font}
          options={hostedPageFonts.map((font) => ({ value: font, label: font }))}
          error={shown.font}
          onChange={(font) => setDesign({ font })}
        />

        <fieldset className="record-section">
          <legend>Texts (en-GB)</legend>
          {(['title', 'description', 'payButtonLabel', 'footer'] as const).map((text) => (
            <TextField
              key={text}
              label={hostedPageTextLabels[text]}
              required={text === 'title' || text === 'payButtonLabel'}
              maxLength={hostedPageTextLimits[text]}
              multiline={text === 'description' || text === 'footer'}
              value={design.texts[text]}
              error={shown[`texts.${text}`]}
              onChange={(value) => setDesign({ texts: { ...design.texts, [text]: value.slice(0, hostedPageTextLimits[text]) } })}
            />
          ))}
        </fieldset>

        <fieldset className="record-section">
          <legend>Payment method order</legend>
          <p className="record-meta">
            The shopper's page takes cards only (this portal has no acquirer: the published test cards are accepted). Other switched-on methods are listed there
            as not available.
          </p>
          {order.length === 0 ? (
            <p className="record-meta">No payment method is switched on in this configuration.</p>
          ) : (
            <ol className="order-list">
              {order.map((method, index) => (
                <li key={method}>
                  <span>
                    {paymentMethodLabels[method]}
                    {enabledMethods.includes(method) ? '' : ' (switched off)'}
                  </span>
                  <button
                    type="button"
                    className="button button-ghost"
                    disabled={index === 0}
                    onClick={() => moveMethod(index, -1)}
                    aria-label={`Move ${paymentMethodLabels[method]} up`}
                  >
                    Up
                  </button>
                  <button
                    type="button"
                    className="button button-ghost"
                    disabled={index === order.length - 1}
                    onClick={() => moveMethod(index, 1)}
                    aria-label={`Move ${paymentMethodLabels[method]} down`}
                  >
                    Down
                  </button>
                </li>
              ))}
            </ol>
          )}
        </fieldset>

        <CheckboxField label="Show order lines" checked={design.showOrderLines} onChange={(showOrderLines) => setDesign({ showOrderLines })} />

        <fieldset className="record-section">
          <legend>Return URLs</legend>
          {(['success', 'cancel', 'failure'] as const).map((kind) => (
            <TextField
              key={kind}
              label={`${kind.charAt(0).toUpperCase()}${kind.slice(1)} return URL`}
              type="url"
              maxLength={maxUrlLength}
              placeholder="https://"
              value={design.returnUrls[kind]}
              error={shown[`returnUrls.${kind}`]}
              onChange={(value) => setDesign({ returnUrls: { ...design.returnUrls, [kind]: value } })}
            />
          ))}
        </fieldset>
      </form>

      <section className="editor-preview" aria-label="Preview">
        <div className="record-tools" role="group" aria-label="Preview width">
          {previewWidths.map((option) => (
            <button key={option} type="button" className="button" aria-pressed={width === option} onClick={() => showWidth(option)}>
              {previewWidthLabels[option]}
            </button>
          ))}
        </div>
        <HostedPagePreview view={previewView(draft, configuration.data, merchant.merchantTitle)} width={width} />
      </section>

      <ConfirmDialog
        open={confirmRemoveLogo}
        title="Remove the logo?"
        text="The logo is deleted and the page shows the merchant's name only. Save the page to keep the change."
        confirmLabel="Remove logo"
        cancelLabel="Keep it"
        onConfirm={() => {
          const old = design.logoImageReference;
          setConfirmRemoveLogo(false);
          setDesign({ logoImageReference: null });
          if (old) void deleteImage(ownerPath, old).catch(() => undefined);
        }}
        onCancel={() => setConfirmRemoveLogo(false)}
      />
    </div>
  );
}
