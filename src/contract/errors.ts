import { type } from 'arktype';

export const errorReportSchema = type({
  errorReport: {
    errors: type({ message: 'string', translatedMessage: 'string' }).array(),
  },
});

export type ErrorReport = typeof errorReportSchema.infer;
