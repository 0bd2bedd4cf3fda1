// autocannon in a Node process of its own (load-test.ts starts it): the options as JSON in the first argument,
// the result as JSON on stdout. Each connection sends the headers of its own caller (headerSets, in turn), so many
// users can share a load where one user's calls in progress are capped (server/app.ts perUserInFlight).
import autocannon from 'autocannon';

type RunOptions = { url: string; method: string; headerSets: Record<string, string>[]; body?: string; connections: number; seconds: number };

const options = JSON.parse(process.argv[2] ?? '{}') as RunOptions;
let connection = 0;
const result = await autocannon({
  url: options.url,
  method: options.method,
  connections: options.connections,
  duration: options.seconds,
  body: options.body,
  headers: options.headerSets[0],
  setupClient: (client) => {
    client.setHeaders(options.headerSets[connection % options.headerSets.length] ?? {});
    connection += 1;
  },
});
process.stdout.write(JSON.stringify(result));
