// The API reference pane against a fake Portal API answering a small OpenAPI document: tags and operations,
// filtering by keyboard, j / k through operations and Enter to expand, parameters and schemas rendered from the
// JSON, deep links per operation, and the palette command that opens it.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openApiReferenceCommand } from '../../../commands/developers/open-api-reference.ts';
import { areaCommands } from '../../../commands/area-commands.ts';
import { ApiReferencePane, linkedOperation, matchesFilter, operationsOf } from '../../../panes/api-reference/api-reference-pane.tsx';
import { describeSchema } from '../../../panes/api-reference/schema-view.tsx';
import type { OpenApiDocumentShape } from '../../../src/contract/openapi-schemas.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const errorResponses = { 400: { $ref: '#/components/responses/Error400' }, 404: { $ref: '#/components/responses/Error404' } };
const businessId = { name: 'businessId', in: 'path' as const, required: true, schema: { type: 'string', minLength: 1 } };

const openApi: OpenApiDocumentShape = {
  openapi: '3.1.0',
  info: { title: 'Payments Portal API', version: '1.0.0', description: 'Generated from the contract.' },
  servers: [{ url: 'https://portal.test/api/portal' }],
  tags: [{ name: 'Beneficiaries and screening' }, { name: 'Transactions' }],
  paths: {
    '/businesses/{businessId}/beneficiaries': {
      get: {
        operationId: 'getBusinessesBeneficiaries',
        summary: 'Beneficiaries of a business',
        tags: ['Beneficiaries and screening'],
        parameters: [
          businessId,
          { name: 'sort', in: 'query', required: false, description: 'created, name, status', schema: { type: 'string', maxLength: 512 } },
        ],
        responses: {
          200: { description: 'Success.', content: { 'application/json': { schema: { $ref: '#/components/schemas/beneficiaryList' } } } },
          ...errorResponses,
        },
      },
      post: {
        operationId: 'postBusinessesBeneficiaries',
        summary: 'Add a beneficiary (screened at once)',
        tags: ['Beneficiaries and screening'],
        parameters: [businessId],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/beneficiaryBody' } } } },
        responses: { 201: { description: 'Success.' }, ...errorResponses },
      },
    },
    '/transactions': {
      get: {
        operationId: 'getTransactions',
        summary: 'Transactions (filtered, sorted, paged)',
        tags: ['Transactions'],
        parameters: [],
        responses: { 200: { description: 'Success.' }, ...errorResponses },
      },
    },
  },
  components: {
    schemas: {
      beneficiaryBody: {
        type: 'object',
        additionalProperties: false,
        required: ['iban', 'kind'],
        properties: {
          iban: { type: 'string', minLength: 1, maxLength: 50 },
          kind: { enum: ['company', 'person'] },
          companyName: { anyOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] },
        },
      },
      beneficiaryList: {
        type: 'object',
        required: ['results'],
        properties: { results: { type: 'array', items: { $ref: '#/components/schemas/beneficiaryBody' } } },
      },
      errorReportSchema: { type: 'object', required: ['errorReport'], properties: { errorReport: { type: 'object' } } },
    },
    responses: {
      Error400: { description: 'The request is malformed.', content: { 'application/json': { schema: { $ref: '#/components/schemas/errorReportSchema' } } } },
      Error404: { description: 'No such record.', content: { 'application/json': { schema: { $ref: '#/components/schemas/errorReportSchema' } } } },
    },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
  },
};

const operationButton = (name: RegExp) => screen.getByRole('button', { name });

describe('the API reference pane', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: [], paths: ['/developers/api'] });
    window.location.hash = '';
  });

  it('lists the operations by tag with the base URL, and counts them per tag', async () => {
    fakeApi({ '/openapi.json': () => openApi });
    renderWithServices(<ApiReferencePane params={{}} search="" capability="API reference" />);
    expect(await screen.findByText('https://portal.test/api/portal', {})).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'API reference' })).toBeTruthy();
    const beneficiaries = screen.getByRole('region', { name: 'Beneficiaries and screening' });
    expect(within(beneficiaries).getAllByRole('button', { expanded: false })).toHaveLength(2);
    expect(operationButton(/GET\s*\/transactions/).getAttribute('aria-expanded')).toBe('false');
    const tags = screen.getByRole('navigation', { name: 'Tags' });
    expect(within(tags).getByRole('button', { name: /Transactions 1/ })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('3 of 3 operations');
  });

  it('filters by every word typed, by tag on request, and clears with Escape', async () => {
    fakeApi({ '/openapi.json': () => openApi });
    renderWithServices(<ApiReferencePane params={{}} search="" capability="API reference" />);
    const filter = await screen.findByRole('searchbox', { name: 'Filter operations' });
    await userEvent.type(filter, 'post beneficiaries');
    expect(screen.getByRole('status').textContent).toBe('1 of 3 operations');
    expect(screen.queryByRole('button', { name: /GET\s*\/transactions/ })).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect((filter as HTMLInputElement).value).toBe('');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Tags' })).getByRole('button', { name: /Transactions/ }));
    expect(screen.getByRole('status').textContent).toBe('1 of 3 operations');
    expect(screen.queryByRole('region', { name: 'Beneficiaries and screening' })).toBeNull();
    await userEvent.type(filter, 'nothing-like-it');
    expect(screen.getByText('No operation matches “nothing-like-it”.')).toBeTruthy();
  });

  it('moves through operations with j and k, expands one with Enter and shows its parameters, body and answers', async () => {
    fakeApi({ '/openapi.json': () => openApi });
    renderWithServices(<ApiReferencePane params={{}} search="" capability="API reference" />);
    const filter = await screen.findByRole('searchbox', { name: 'Filter operations' });
    await userEvent.click(filter);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(operationButton(/GET\s*\/businesses\/\{businessId\}\/beneficiaries/));
    await userEvent.keyboard('j');
    const post = operationButton(/POST\s*\/businesses\/\{businessId\}\/beneficiaries/);
    expect(document.activeElement).toBe(post);
    await userEvent.keyboard('j');
    await userEvent.keyboard('k');
    expect(document.activeElement).toBe(post);
    await userEvent.keyboard('{Enter}');
    expect(post.getAttribute('aria-expanded')).toBe('true');
    const detail = document.getElementById(post.getAttribute('aria-controls') ?? '');
    if (!detail) throw new Error('no detail');
    expect(within(detail).getByText('postBusinessesBeneficiaries')).toBeTruthy();
    const parameters = within(detail).getByRole('table', { name: 'Parameters' });
    expect(within(parameters).getAllByRole('row')[1]?.textContent).toBe('businessId requiredpathstring, at least 1 character');
    // The body is a named schema, opened on request: its properties, required ones marked, and their rules.
    await userEvent.click(within(detail).getAllByText('beneficiaryBody')[0] as HTMLElement);
    expect(within(detail).getByText('1–50 characters', { exact: false })).toBeTruthy();
    expect(within(detail).getByText('one of: "company", "person"')).toBeTruthy();
    expect(within(detail).getByText('The request is malformed.')).toBeTruthy();
    post.focus();
    await userEvent.keyboard('{Enter}');
    expect(post.getAttribute('aria-expanded')).toBe('false');
  });

  it('opens the operation a link names, by ?operation= or by #fragment', async () => {
    fakeApi({ '/openapi.json': () => openApi });
    renderWithServices(<ApiReferencePane params={{}} search="?operation=getTransactions" capability="API reference" />);
    const transactions = await screen.findByRole('button', { name: /GET\s*\/transactions/ });
    expect(transactions.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(transactions);
    expect(linkedOperation('', '#postBusinessesBeneficiaries')).toBe('postBusinessesBeneficiaries');
    expect(linkedOperation('?operation=a', '#b')).toBe('a');
    expect(linkedOperation('', '')).toBeNull();
  });

  it('says so when the document cannot be loaded', async () => {
    fakeApi({ '/openapi.json': () => ({ openapi: '2.0' }) });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithServices(<ApiReferencePane params={{}} search="" capability="API reference" />);
    expect((await screen.findByRole('alert', {})).textContent).toBe('The API reference could not be loaded.');
  });

  it('describes schemas in one line and matches operations by any of their names', () => {
    expect(describeSchema({ type: 'integer', minimum: 1 })).toBe('integer, ≥ 1');
    expect(describeSchema({ anyOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] })).toBe('string, at most 200 characters or null');
    expect(describeSchema({ type: 'array', items: { $ref: '#/components/schemas/beneficiaryBody' }, maxItems: 25 })).toBe(
      'array of beneficiaryBody (at most 25)',
    );
    const [first] = operationsOf(openApi);
    if (!first) throw new Error('no operation');
    expect(matchesFilter(first, 'GET benef')).toBe(true);
    expect(matchesFilter(first, 'screening getBusinessesBeneficiaries')).toBe(true);
    expect(matchesFilter(first, 'post')).toBe(false);
  });

  it('is opened from the palette by “Open API reference”', async () => {
    expect(areaCommands).toContain(openApiReferenceCommand);
    expect(openApiReferenceCommand.title).toBe('Open API reference');
    const navigate = vi.fn();
    await openApiReferenceCommand.run({ navigate } as never, {});
    expect(navigate).toHaveBeenCalledWith('/developers/api', { beside: false });
  });
});
