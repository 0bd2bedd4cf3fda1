// The editor's preview and the shopper's page show an order line the same way: one formatter of the cells (unit
// price and the line's total), used by the one renderer; the preview's sample order adds up to its amount.
import { describe, expect, it } from 'vitest';
import { previewView } from '../../../panes/configurations/hosted-page-editor-pane.tsx';
import { defaultHostedPageDesign } from '../../../src/contract/configurations.ts';
import { formatHostedPageMoney, hostedPageBody, hostedPageCss, hostedPageOrderLineCells } from '../../../src/contract/hosted-page-render.ts';

const rowsOf = (html: string) =>
  [...html.matchAll(/<tr><td>([^<]*)<\/td><td class="end">(\d+)<\/td><td class="end">([^<]*)<\/td><td class="end">([^<]*)<\/td><\/tr>/g)].map((match) =>
    match.slice(1, 5),
  );

describe('order lines on the hosted payment page', () => {
  it.each([
    [
      { description: 'Mug', quantity: 3, unitPriceMinor: 1250, currency: 'GBP' },
      { unitPrice: '£12.50', amount: '£37.50' },
    ],
    [
      { description: 'Tea', quantity: 1, unitPriceMinor: 799, currency: 'EUR' },
      { unitPrice: '€7.99', amount: '€7.99' },
    ],
    [
      { description: 'Cake', quantity: 2, unitPriceMinor: 450, currency: 'JPY' },
      { unitPrice: 'JP¥450', amount: 'JP¥900' },
    ],
    [
      { description: 'Odd', quantity: 2, unitPriceMinor: 100, currency: 'XQQ' },
      { unitPrice: 'XQQ 1.00', amount: 'XQQ 2.00' },
    ],
  ])('formats %o as its unit price and line total', (line, cells) => {
    // An unknown currency's code is followed by a space that ICU may make non-breaking: compare the words.
    const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
    const { unitPrice, amount } = hostedPageOrderLineCells(line);
    expect({ unitPrice: plain(unitPrice), amount: plain(amount) }).toEqual(cells);
  });

  it('shows unit price and line total in the preview, adding up to the amount it shows', () => {
    const view = previewView({ name: 'Default', design: { ...defaultHostedPageDesign, showOrderLines: true } }, undefined, 'Alpha Online');
    const html = hostedPageBody(view);
    expect(rowsOf(html)).toEqual([
      ['Sample item', '2', '£17.50', '£35.00'],
      ['Delivery', '1', '£7.50', '£7.50'],
    ]);
    expect(view.amount).toBe('£42.50');
    expect(view.amount).toBe(formatHostedPageMoney(3500 + 750, 'GBP'));
    // The live page renders the same lines with the same cells.
    const live = hostedPageBody({ ...view, mode: 'live', formAction: '/pay/PJ1' });
    expect(rowsOf(live)).toEqual(rowsOf(html));
  });

  it('lets the expiry and security code columns shrink to the page instead of overflowing', () => {
    const css = hostedPageCss(defaultHostedPageDesign);
    expect(css).toContain('.hpp-row{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr)');
    expect(css).toMatch(/\.hpp-field input\{[^}]*width:100%;min-width:0/);
  });
});
