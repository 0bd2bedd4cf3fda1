// The hosted page editor's live preview (the shopper page's renderer in a sandboxed frame, redrawn as you type)
// and the image pipeline's validation (the spec's danger toasts), against a fake Portal API.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type vi } from 'vitest';
import { HostedPageEditorPane } from '../../../panes/configurations/hosted-page-editor-pane.tsx';
import { fitWithin, imageFileProblem, runImagePipeline } from '../../../panes/configurations/image-pipeline.ts';
import { moveWizardStep } from '../../../panes/configurations/configuration-context.ts';
import type { ConfigurationDetail, HostedPageAnswer } from '../../../src/contract/configuration-schemas.ts';
import { defaultHostedPageDesign, paymentMethodLabels } from '../../../src/contract/configurations.ts';
import { paymentMethods } from '../../../src/contract/enumerations.ts';
import { hostedPageBody, shopperPaymentOptions } from '../../../src/contract/hosted-page-render.ts';
import { toastStore } from '../../../src/state/toast-store.ts';
import { PaneScopeContext } from '../../../src/state/pane-scope.tsx';
import { sendPaneRequest, workspaceStore } from '../../../src/state/workspace-store.ts';
import type { CommandServices } from '../../../commands/command.ts';
import { hostedPageCommands, previewDesktopCommand, previewPhoneCommand, removeLogoCommand } from '../../../commands/configurations/hosted-page-commands.ts';
import { isAvailable } from '../../../commands/registry.ts';
import { baseContext, fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const context = { business: { id: 'B1', title: 'Alpha Trading' }, merchant: { id: 'M1', title: 'Alpha Online' } };
const page: HostedPageAnswer = {
  reference: 'HPP1',
  configurationId: 'C1',
  name: 'Checkout',
  version: 3,
  updatedAt: '2026-11-01T10:00:00.000Z',
  design: { ...defaultHostedPageDesign, texts: { ...defaultHostedPageDesign.texts, title: 'Pay Alpha' } },
};
const configuration: ConfigurationDetail = {
  configurationId: 'C1',
  businessId: 'B1',
  merchantId: 'M1',
  tradeName: 'Alpha web shop',
  description: '',
  switches: { virtualTerminalMenuEnabled: true },
  version: 3,
  hostedPages: [{ reference: 'HPP1', name: 'Checkout', updatedAt: '2026-11-01T10:00:00.000Z' }],
  paymentMethods: paymentMethods.map((method) => ({
    paymentMethod: method,
    configuration: {
      paymentMethod: method,
      enabled: method === 'card' || method === 'ideal',
      displayName: method === 'card' ? 'Debit or credit card' : paymentMethodLabels[method],
      threeDSecurePolicy: null,
      minimumAmount: null,
      maximumAmount: null,
      currencies: ['GBP'],
    },
  })),
};

function renderEditor() {
  const api = fakeApi({
    '/businesses/B1/merchants/M1/hosted-pages/HPP1': () => page,
    '/businesses/B1/merchants/M1/configurations/C1': () => configuration,
  });
  renderWithServices(
    <HostedPageEditorPane params={{ configurationId: 'C1', hostedPaymentPageReference: 'HPP1' }} search="" capability="Hosted payment page editor" />,
  );
  return api;
}

const previewBody = () => (screen.getByTitle(/^Preview of the payment page/) as HTMLIFrameElement).contentDocument?.body;

describe('the hosted page editor', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Configurations.Read', 'Mapi.Configurations.Update'], context, paths: ['/configurations/C1/hosted-payment-page/HPP1'] });
  }, 20_000);

  it('draws the page in a sandboxed frame that cannot submit, and redraws it on every keystroke', async () => {
    renderEditor();
    const frame = (await screen.findByTitle('Preview of the payment page at desktop width', {})) as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    await waitFor(() => expect(previewBody()?.querySelector('h1')?.textContent).toBe('Pay Alpha'));
    // What the shopper's page can take (a card, by its display name); iDEAL is switched on but named as not
    // available there, exactly as on the shopper's page. The button cannot submit in the preview.
    expect([...(previewBody()?.querySelectorAll('.hpp-method') ?? [])].map((label) => label.textContent?.trim())).toEqual(['Debit or credit card']);
    expect(previewBody()?.querySelector('.hpp-unavailable')?.textContent).toBe('iDEAL is not available on this page.');
    expect(previewBody()?.textContent).toContain('only the published test cards are accepted');
    expect(previewBody()?.querySelector('.hpp-pay')?.getAttribute('type')).toBe('button');
    expect(previewBody()?.querySelector('form')?.getAttribute('action')).toBeNull();

    const user = userEvent.setup();
    const title = screen.getByRole('textbox', { name: /^Title/ });
    await user.clear(title);
    await user.type(title, 'Thanks <b>!');
    expect(previewBody()?.querySelector('h1')?.textContent).toBe('Thanks <b>!');
    expect(previewBody()?.querySelector('h1 b')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Show order lines' }));
    expect(previewBody()?.querySelector('.hpp-lines')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Phone' }));
    expect(screen.getByTitle('Preview of the payment page at phone width').getAttribute('data-width')).toBe('phone');
    await user.click(screen.getByRole('button', { name: 'Move iDEAL up' }));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent?.split('Up')[0])).toEqual(['iDEAL', 'Card', 'PayPal (switched off)']);
    expect([...(previewBody()?.querySelectorAll('.hpp-method') ?? [])].map((label) => label.textContent?.trim())).toEqual(['Debit or credit card']);
  }, 20_000);

  it('answers the preview-width and remove-logo commands through the same handlers as its buttons', async () => {
    workspaceStore.panes = [{ id: 'pane-test', path: '/configurations/C1/hosted-payment-page/HPP1', capabilities: [], request: null, dirty: false }];
    workspaceStore.focusedIndex = 0;
    const api = fakeApi({
      '/businesses/B1/merchants/M1/hosted-pages/HPP1': () => ({ ...page, design: { ...page.design, logoImageReference: `IMG${'A'.repeat(32)}` } }),
      '/businesses/B1/merchants/M1/configurations/C1': () => configuration,
    });
    renderWithServices(
      <PaneScopeContext.Provider value={{ paneId: 'pane-test' }}>
        <HostedPageEditorPane params={{ configurationId: 'C1', hostedPaymentPageReference: 'HPP1' }} search="" capability="Hosted payment page editor" />
      </PaneScopeContext.Provider>,
    );
    await screen.findByTitle('Preview of the payment page at desktop width', {});
    await waitFor(() => expect([...(workspaceStore.panes[0]?.capabilities ?? [])].sort()).toEqual(['previewWidth', 'removeLogo']));
    const services = { state: { paneRequest: (capability: never, argument?: number) => sendPaneRequest(capability, argument) } } as unknown as CommandServices;
    // Removing the logo is a configuration edit: offered with the permission the server checks.
    const ctx = baseContext({
      permissions: ['Mapi.Configurations.Update'],
      focusedPane: { id: 'pane-test', capabilities: [...(workspaceStore.panes[0]?.capabilities ?? [])] },
    });
    expect(hostedPageCommands.filter((command) => isAvailable(command, ctx)).map((command) => command.id)).toEqual([
      'hostedPage.previewDesktop',
      'hostedPage.previewPhone',
      'hostedPage.removeLogo',
    ]);

    act(() => void previewPhoneCommand.run(services, {}));
    expect(await screen.findByTitle('Preview of the payment page at phone width')).toHaveProperty('dataset.width', 'phone');
    expect(screen.getByRole('button', { name: 'Phone' }).getAttribute('aria-pressed')).toBe('true');
    act(() => void previewDesktopCommand.run(services, {}));
    expect(await screen.findByTitle('Preview of the payment page at desktop width')).toHaveProperty('dataset.width', 'desktop');

    // Removal asks first: keeping it changes nothing; confirming clears the logo and deletes the image.
    act(() => void removeLogoCommand.run(services, {}));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove the logo?' });
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.getByRole('img', { name: 'Current logo' })).toBeTruthy();
    expect(api.delete).not.toHaveBeenCalled();
    act(() => void removeLogoCommand.run(services, {}));
    await userEvent.setup().click(within(await screen.findByRole('alertdialog', { name: 'Remove the logo?' })).getByRole('button', { name: 'Remove logo' }));
    await waitFor(() => expect(screen.queryByRole('img', { name: 'Current logo' })).toBeNull());
    expect((api.delete as unknown as ReturnType<typeof vi.fn>).mock.calls[0]?.[0]).toContain(`/images/IMG${'A'.repeat(32)}`);
    // No logo left: the command is no longer offered.
    await waitFor(() => expect(workspaceStore.panes[0]?.capabilities).not.toContain('removeLogo'));
  }, 20_000);

  it('warns when text and background fall below WCAG AA contrast', async () => {
    renderEditor();
    const text = await screen.findByLabelText('Text colour', {});
    fireEvent.change(text, { target: { value: '#dddddd' } });
    expect((await screen.findByText(/Text on the background has a contrast of/)).textContent).toContain('below the 4.5:1 that WCAG AA asks for');
  }, 20_000);

  it('enforces the text limits and saves with the shared version', async () => {
    const api = renderEditor();
    const put = api.put as unknown as ReturnType<typeof vi.fn>;
    put.mockResolvedValue({ ...page, name: 'Checkout EU', version: 4 });
    const user = userEvent.setup();
    const title = await screen.findByRole('textbox', { name: /^Title/ });
    await user.clear(title);
    await user.click(title);
    await user.paste('x'.repeat(70));
    expect((title as HTMLInputElement).value).toHaveLength(60);
    const name = screen.getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Name is required');
    expect(put).not.toHaveBeenCalled();
    await user.type(name, 'Checkout EU');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put.mock.calls[0]?.[0]).toBe('/businesses/B1/merchants/M1/hosted-pages/HPP1');
    expect(put.mock.calls[0]?.[1]).toMatchObject({ name: 'Checkout EU', version: 3 });
  }, 20_000);

  it('refuses a wrong file type and a file over 5 MB with danger toasts, before any upload', async () => {
    const api = renderEditor();
    const input = (await screen.findByLabelText(/Upload a logo/, {})) as HTMLInputElement;
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(input, new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' }));
    await waitFor(() =>
      expect(toastStore.toasts.map((toast) => [toast.kind, toast.message])).toContainEqual(['danger', 'Invalid file type, allowed: .jpg, .jpeg, .png']),
    );
    const big = new File([new Uint8Array(5_242_881)], 'huge.png', { type: 'image/png' });
    await user.upload(input, big);
    await waitFor(() => expect(toastStore.toasts.map((toast) => toast.message)).toContain('The file exceeded the maximum file size of 5 MB'));
    expect(toastStore.toasts.every((toast) => toast.durationMs === 5000)).toBe(true);
    expect(api.post).not.toHaveBeenCalled();
  }, 20_000);
});

describe('the image pipeline', () => {
  it.each([
    [{ type: 'image/jpeg', size: 1000 }, null],
    [{ type: 'image/png', size: 5_242_880 }, null],
    [{ type: 'image/png', size: 5_242_881 }, 'The file exceeded the maximum file size of 5 MB'],
    [{ type: 'image/gif', size: 10 }, 'Invalid file type, allowed: .jpg, .jpeg, .png'],
    [{ type: '', size: 10 }, 'Invalid file type, allowed: .jpg, .jpeg, .png'],
    [{ type: 'image/png', size: 0 }, 'Please choose an image file'],
  ])('checks %o', (file, message) => {
    expect(imageFileProblem(file)?.message ?? null).toBe(message);
  });

  it.each([
    [4000, 3000, { width: 800, height: 600 }],
    [3000, 4000, { width: 450, height: 600 }],
    [400, 300, { width: 400, height: 300 }],
    [1600, 200, { width: 800, height: 100 }],
  ])('fits %i × %i within 800 × 600', (width, height, expected) => {
    expect(fitWithin(width, height)).toEqual(expected);
  });

  it('uploads the resized bytes, then deletes the old image, then answers the new reference', async () => {
    const calls: string[] = [];
    const reference = await runImagePipeline(new File([new Uint8Array([1, 2, 3])], 'logo.png', { type: 'image/png' }), 'IMGOLD', {
      resize: async () => {
        calls.push('resize');
        return new Blob([new Uint8Array([9, 8, 7])]);
      },
      upload: async (body) => {
        calls.push(`upload ${body.mimeType} ${body.data}`);
        return { imageReference: 'IMGNEW' };
      },
      deleteOld: async (old) => {
        calls.push(`delete ${old}`);
      },
      notify: (message) => calls.push(`notify ${message}`),
    });
    expect(reference).toBe('IMGNEW');
    expect(calls).toEqual(['resize', `upload image/png ${btoa(String.fromCharCode(9, 8, 7))}`, 'delete IMGOLD']);
  });
});

describe('the shared renderer and the wizard steps', () => {
  it('escapes every text and drops a logo that is not one of our references', () => {
    const html = hostedPageBody({
      design: {
        ...defaultHostedPageDesign,
        logoImageReference: '"><script>alert(1)</script>',
        texts: { ...defaultHostedPageDesign.texts, footer: '<img src=x onerror=alert(1)>' },
      },
      merchantName: 'A & B',
      amount: '£1.00',
      orderNumber: '<1>',
      orderLines: [],
      paymentMethods: [],
      mode: 'preview',
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('A &amp; B');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it("offers a card within its setting and names every other switched-on method, in the design's order", () => {
    const setting = (method: 'card' | 'ideal' | 'payPal' | 'klarnaPayNow', overrides = {}) => ({
      method,
      enabled: true,
      displayName: method === 'card' ? 'Debit or credit card' : '',
      minimumAmountMilli: null,
      maximumAmountMilli: null,
      currencies: ['GBP'],
      ...overrides,
    });
    const settings = [
      setting('card', { minimumAmountMilli: 1_000, maximumAmountMilli: 50_000 }),
      setting('ideal'),
      setting('payPal'),
      setting('klarnaPayNow', { enabled: false }),
    ];
    const open = shopperPaymentOptions(['payPal', 'card', 'ideal'], settings, { amountMilli: 42_500, currency: 'GBP' });
    expect(open).toEqual({ payable: [{ method: 'card', label: 'Debit or credit card' }], unavailable: ['PayPal', 'iDEAL'] });
    expect(shopperPaymentOptions(['card'], settings, { amountMilli: 60_000, currency: 'GBP' }).reason).toBe(
      "The amount is above this shop's maximum for Debit or credit card payments.",
    );
    expect(shopperPaymentOptions(['card'], settings, { amountMilli: 500, currency: 'GBP' }).reason).toBe(
      "The amount is below this shop's minimum for Debit or credit card payments.",
    );
    expect(shopperPaymentOptions(['card'], settings, { amountMilli: 5_000, currency: 'EUR' }).payable).toEqual([]);
    // The preview has no real payment: limits are not applied there.
    expect(shopperPaymentOptions(['card'], settings, null).payable).toHaveLength(1);
    expect(shopperPaymentOptions([], [setting('card', { enabled: false })], null)).toEqual({
      payable: [],
      unavailable: [],
      reason: 'Card payments are not switched on for this shop.',
    });

    const body = (view: Partial<Parameters<typeof hostedPageBody>[0]>) =>
      hostedPageBody({
        design: defaultHostedPageDesign,
        merchantName: 'Alpha',
        amount: '£1.00',
        orderNumber: '1',
        orderLines: [],
        paymentMethods: [],
        mode: 'live',
        formAction: '/pay/X',
        ...view,
      });
    expect(body({ paymentMethods: open.payable, unavailableMethods: open.unavailable })).toContain('PayPal and iDEAL are not available on this page.');
    const none = body({ unpayableReason: 'Card payments are not switched on for this shop.' });
    expect(none).toContain('<h2>This payment cannot be made on this page</h2>');
    expect(none).toContain('Contact Alpha to pay another way.');
    expect(none).not.toContain('<form');
  });

  it.each([
    [0, { kind: 'next' } as const, 1],
    [3, { kind: 'next' } as const, 3],
    [0, { kind: 'previous' } as const, 0],
    [2, { kind: 'previous' } as const, 1],
    [0, { kind: 'to', step: 2 } as const, 2],
    [0, { kind: 'to', step: 9 } as const, 3],
  ])('moves the wizard from step %i by %o to %i', (current, move, expected) => {
    expect(moveWizardStep(current, move, 4)).toBe(expected);
  });
});
