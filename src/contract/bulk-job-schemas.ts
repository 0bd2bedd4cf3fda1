// The schema of a bulk job request (arktype), checked by the server (server/api/bulk-jobs.ts).
import { type } from 'arktype';
import { bulkActions, bulkAreas, bulkJobStatuses, maxClientKeyLength, maxPickedIds, type BulkJob } from './bulk-jobs.ts';

const id = /^[A-Za-z0-9_.@:-]{1,128}$/;

export const bulkSelection = type({
  '+': 'reject',
  /** every item that matches the filters, minus excludedIds; false: only includedIds */
  allMatching: 'boolean',
  filters: type({ '[string]': 'string <= 500' }),
  includedIds: type(id).array().atMostLength(maxPickedIds),
  excludedIds: type(id).array().atMostLength(maxPickedIds),
});

export const bulkContext = type({
  '+': 'reject',
  level: "'all' | 'partner' | 'business' | 'merchant'",
  'partnerId?': id,
  'businessId?': id,
  'merchantId?': id,
});

export const createBulkJobBody = type({
  '+': 'reject',
  area: type.enumerated(...bulkAreas),
  action: type.enumerated(...bulkActions),
  context: bulkContext,
  selection: bulkSelection,
  'params?': type({
    '+': 'reject',
    'status?': 'string <= 40',
    'assigneeId?': 'string <= 128 | null',
    'fileType?': "'csv' | 'xlsx'",
    'columns?': type('string <= 64').array().atMostLength(40),
    'confirmed?': 'boolean',
  }),
  /** the same key again returns the first job (a retry), like the Idempotency-Key header */
  'clientKey?': `string <= ${maxClientKeyLength}`,
});
export type CreateBulkJobBody = typeof createBulkJobBody.infer;

/** A bulk job as the server answers it (GET /bulk-jobs/{jobId}, POST …/cancel; { job } from POST /bulk-jobs, { results } from GET /bulk-jobs). */
export const bulkJobSchema = type({
  id: 'string',
  area: type.enumerated(...bulkAreas),
  action: type.enumerated(...bulkActions),
  status: type.enumerated(...bulkJobStatuses),
  cancelRequested: 'boolean',
  totalItems: 'number.integer',
  processedItems: 'number.integer',
  succeededItems: 'number.integer',
  failedItems: 'number.integer',
  createdAt: 'string',
  finishedAt: 'string | null',
  reportId: 'string | null',
  resultFileName: 'string | null',
  error: 'string | null',
});
export const createdBulkJob = type({ job: bulkJobSchema });
export const bulkJobList = type({ results: bulkJobSchema.array() });
/** The schema and the BulkJob type the server builds its answers with may not drift apart. */
export const bulkJobSchemaMatches: [typeof bulkJobSchema.infer, BulkJob] extends [BulkJob, typeof bulkJobSchema.infer] ? true : never = true;
