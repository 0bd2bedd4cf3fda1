declare module 'autocannon' {
  type Options = { url: string; connections: number; duration: number; method?: string; headers?: Record<string, string>; body?: string; pipelining?: number };
  type Histogram = { p50: number; p90: number; p99: number; average: number; max: number };
  type Result = { requests: Histogram & { total: number; average: number }; latency: Histogram; errors: number; timeouts: number; non2xx: number; '2xx': number };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
