// Query factories and writes: businesses, merchants, configurations, payment-method settings, hosted
// pages, images and API keys. Keys go from generic to specific; every answer is checked against the contract.
import { queryOptions } from '@tanstack/react-query';
import type { ImageMimeType, OldKeyStop, PaymentMethodEdit, HostedPageDesign } from '../contract/configurations.ts';
import type { PaymentMethod } from '../contract/enumerations.ts';
import { api } from './api-client.ts';
import { validate } from './validate.ts';

const e = encodeURIComponent;
export const businessPath = (businessId: string) => `/businesses/${e(businessId)}`;
export const merchantPath = (businessId: string, merchantId: string) => `${businessPath(businessId)}/merchants/${e(merchantId)}`;
export const configurationPath = (businessId: string, merchantId: string, configurationId: string) =>
  `${merchantPath(businessId, merchantId)}/configurations/${e(configurationId)}`;

export const businessQueries = {
  all: ['businesses'] as const,
  detail: (businessId: string) =>
    queryOptions({
      queryKey: [...businessQueries.all, businessId, 'detail'] as const,
      queryFn: async ({ signal }) => validate('businessDetail', await api.get<unknown>(businessPath(businessId), { signal })),
      staleTime: 30_000,
    }),
  merchants: (businessId: string, query: Record<string, string>) =>
    queryOptions({
      queryKey: [...businessQueries.all, businessId, 'merchants', query] as const,
      queryFn: async ({ signal }) => validate('merchantList', await api.get<unknown>(`${businessPath(businessId)}/merchants`, { query, signal })),
      staleTime: 30_000,
    }),
  merchant: (businessId: string, merchantId: string) =>
    queryOptions({
      queryKey: [...businessQueries.all, businessId, 'merchant', merchantId] as const,
      queryFn: async ({ signal }) => validate('merchantDetail', await api.get<unknown>(merchantPath(businessId, merchantId), { signal })),
      staleTime: 30_000,
    }),
};

export async function saveBusiness(businessId: string, body: { businessName: string; businessUrl: string | null; version: number }) {
  return validate('businessDetail', await api.put<unknown>(businessPath(businessId), body));
}

export async function saveMerchant(
  businessId: string,
  merchantId: string,
  body: { merchantName: string; merchantUrl: string | null; supportUrl: string | null; supportEmail: string | null; version: number },
) {
  return validate('merchantDetail', await api.put<unknown>(merchantPath(businessId, merchantId), body));
}

export const configurationQueries = {
  all: ['configurations'] as const,
  list: (businessId: string, merchantId: string, query: Record<string, string>) =>
    queryOptions({
      queryKey: [...configurationQueries.all, merchantId, 'list', query] as const,
      queryFn: async ({ signal }) =>
        validate('configurationList', await api.get<unknown>(`${merchantPath(businessId, merchantId)}/configurations`, { query, signal })),
      staleTime: 15_000,
    }),
  detail: (businessId: string, merchantId: string, configurationId: string) =>
    queryOptions({
      queryKey: [...configurationQueries.all, merchantId, 'detail', configurationId] as const,
      queryFn: async ({ signal }) =>
        validate('configurationDetail', await api.get<unknown>(configurationPath(businessId, merchantId, configurationId), { signal })),
      staleTime: 5_000,
    }),
  hostedPage: (businessId: string, merchantId: string, reference: string) =>
    queryOptions({
      queryKey: [...configurationQueries.all, merchantId, 'hostedPage', reference] as const,
      queryFn: async ({ signal }) =>
        validate('hostedPageAnswer', await api.get<unknown>(`${merchantPath(businessId, merchantId)}/hosted-pages/${e(reference)}`, { signal })),
      staleTime: 5_000,
    }),
  apiKeys: (businessId: string, merchantId: string, configurationId: string) =>
    queryOptions({
      queryKey: [...configurationQueries.all, merchantId, 'apiKeys', configurationId] as const,
      queryFn: async ({ signal }) =>
        validate('apiKeyList', await api.get<unknown>(`${configurationPath(businessId, merchantId, configurationId)}/api-keys`, { signal })),
      staleTime: 5_000,
    }),
};

export type ConfigurationWrite = { tradeName: string; description: string; switches: Record<string, boolean> & { virtualTerminalMenuEnabled: boolean } };

export async function createConfiguration(
  businessId: string,
  merchantId: string,
  body: { tradeName: string; description: string; switches?: ConfigurationWrite['switches']; paymentMethods?: PaymentMethod[] },
) {
  return validate('configurationDetail', await api.post<unknown>(`${merchantPath(businessId, merchantId)}/configurations`, body));
}

export async function saveConfiguration(businessId: string, merchantId: string, configurationId: string, body: ConfigurationWrite & { version: number }) {
  return validate('configurationDetail', await api.put<unknown>(configurationPath(businessId, merchantId, configurationId), body));
}

export async function deleteConfiguration(businessId: string, merchantId: string, configurationId: string, version: number) {
  await api.delete<unknown>(configurationPath(businessId, merchantId, configurationId), { query: { version } });
}

export async function savePaymentMethod(
  businessId: string,
  merchantId: string,
  configurationId: string,
  method: PaymentMethod,
  body: PaymentMethodEdit & { version: number },
) {
  return validate('paymentMethodAnswer', await api.put<unknown>(`${configurationPath(businessId, merchantId, configurationId)}/${method.toLowerCase()}`, body));
}

export async function createHostedPage(
  businessId: string,
  merchantId: string,
  body: { configurationId: string; name: string; design: HostedPageDesign; version: number },
) {
  return validate('hostedPageAnswer', await api.post<unknown>(`${merchantPath(businessId, merchantId)}/hosted-pages`, body));
}

export async function saveHostedPage(
  businessId: string,
  merchantId: string,
  reference: string,
  body: { name: string; design: HostedPageDesign; version: number },
) {
  return validate('hostedPageAnswer', await api.put<unknown>(`${merchantPath(businessId, merchantId)}/hosted-pages/${e(reference)}`, body));
}

export async function deleteHostedPage(businessId: string, merchantId: string, reference: string, version: number) {
  await api.delete<unknown>(`${merchantPath(businessId, merchantId)}/hosted-pages/${e(reference)}`, { query: { version } });
}

export async function uploadImage(ownerPath: string, body: { data: string; mimeType: ImageMimeType }) {
  return validate('imageUpload', await api.post<unknown>(`${ownerPath}/images`, body));
}

export async function deleteImage(ownerPath: string, imageReference: string) {
  await api.delete<unknown>(`${ownerPath}/images/${e(imageReference)}`);
}

export const imageUrl = (imageReference: string) => `/api/portal/images/${e(imageReference)}`;

export async function createApiKey(path: string, body: { name: string; description: string; expiresAt: string | null }) {
  // Creating needs a step-up too: the 403 comes back to the API keys panel, which asks for it.
  return validate('apiKeyCreated', await api.post<unknown>(`${path}/api-keys`, body, { handleErrors: (status) => status !== 403 }));
}

export async function startApiKeyReplacement(path: string, keyId: string) {
  // A 403 comes back to the caller: it may ask for a step-up (panes/step-up), which the API keys panel handles.
  return validate(
    'apiKeyCreated',
    await api.post<unknown>(`${path}/api-keys/${e(keyId)}/replacement`, undefined, { handleErrors: (status) => status !== 403 }),
  );
}

export async function completeApiKeyReplacement(path: string, keyId: string, oldKeyStops: OldKeyStop) {
  return validate('apiKeyReplacementCompleted', await api.post<unknown>(`${path}/api-keys/${e(keyId)}/replacement/complete`, { oldKeyStops }));
}

export async function revokeApiKey(path: string, keyId: string) {
  await api.delete<unknown>(`${path}/api-keys/${e(keyId)}`);
}
