// Opens the Portal API reference (/developers/api): any signed-in user, from anywhere.
import type { Command } from '../command.ts';

export const apiReferencePath = '/developers/api';

export const openApiReferenceCommand: Command = {
  id: 'developers.openApiReference',
  title: 'Open API reference',
  section: 'Navigation',
  keywords: ['api', 'openapi', 'swagger', 'developer', 'developers', 'reference', 'endpoints', 'schema', 'docs'],
  when: (ctx) => ctx.signedIn,
  run: (run, args) => run.navigate(apiReferencePath, { beside: args.beside === true }),
};
