/** The part of autocannon 9's programmatic API the HTTP benchmarks use (it ships no types). */
declare module "autocannon" {
  export interface Histogram {
    readonly average: number
    readonly mean: number
    readonly stddev: number
    readonly min: number
    readonly max: number
    readonly total: number
    readonly p50: number
    readonly p90: number
    readonly p99: number
  }
  export interface RawRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
  }
  export interface Options {
    url: string
    connections?: number
    duration?: number
    pipelining?: number
    method?: string
    headers?: Record<string, string>
    requests?: ReadonlyArray<RawRequest & { setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest }>
  }
  export interface Result {
    readonly requests: Histogram
    readonly latency: Histogram
    readonly throughput: Histogram
    readonly duration: number
    readonly errors: number
    readonly timeouts: number
    readonly non2xx: number
    readonly "2xx": number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
