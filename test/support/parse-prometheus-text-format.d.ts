// Types of parse-prometheus-text-format (it ships none): prom2json's shape, every value a string.
declare module "parse-prometheus-text-format" {
  export interface PrometheusSample {
    readonly labels?: Readonly<Record<string, string>>
    readonly value?: string
    /** Histograms: cumulative counts by upper bound (`le`), and the total count and sum. */
    readonly buckets?: Readonly<Record<string, string>>
    readonly count?: string
    readonly sum?: string
    /** Summaries. */
    readonly quantiles?: Readonly<Record<string, string>>
  }
  export interface PrometheusFamily {
    readonly name: string
    readonly help: string
    readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"
    readonly metrics: ReadonlyArray<PrometheusSample>
  }
  const parsePrometheusTextFormat: (text: string) => Array<PrometheusFamily>
  export default parsePrometheusTextFormat
}
