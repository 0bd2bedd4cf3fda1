declare module 'autocannon' {
  type Client = { setHeaders: (headers: Record<string, string>) => void };
  type Options = {
    url: string;
    connections: number;
    duration: number;
    method?: string;
    headers?: Record<string, string> | undefined;
    body?: string | undefined;
    pipelining?: number;
    setupClient?: (client: Client) => void;
  };
  type Histogram = { p50: number; p90: number; p99: number; average: number; max: number };
  type Result = {
    requests: Histogram & { total: number; average: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
