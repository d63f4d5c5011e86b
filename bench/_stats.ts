// Small statistics and output helpers shared by the benchmarks.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

export const quantile = (sorted: ReadonlyArray<number>, q: number): number => {
  if (sorted.length === 0) return Number.NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[i] ?? Number.NaN
}

/**
 * The median: the middle value, or the mean of the two middle values of an even count. (The
 * nearest rank `quantile` gives the lower of the two, which put every even-count figure, the
 * benchmarks' 8 rounds among them, on the low side.)
 */
export const median = (sorted: ReadonlyArray<number>): number => {
  const n = sorted.length
  if (n === 0) return Number.NaN
  const upper = sorted[n >> 1] ?? Number.NaN
  return n % 2 === 1 ? upper : ((sorted[(n >> 1) - 1] ?? Number.NaN) + upper) / 2
}

export const summarize = (samples: ReadonlyArray<number>) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return { n: sorted.length, median: median(sorted), p99: quantile(sorted, 0.99) }
}

export const writeResult = (name: string, result: unknown): string => {
  const dir = fileURLToPath(new URL("./results/", import.meta.url))
  mkdirSync(dir, { recursive: true })
  const file = `${dir}${name}.json`
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  return file
}

export const printTable = (rows: ReadonlyArray<Record<string, string | number>>) => {
  const first = rows[0]
  if (first === undefined) return
  const headers = Object.keys(first)
  const cell = (v: string | number) =>
    typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => cell(r[h] ?? "").length)))
  const line = (values: ReadonlyArray<string>) => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join("  ")
  process.stdout.write(`${line(headers)}\n${line(widths.map((w) => "-".repeat(w)))}\n`)
  for (const r of rows) process.stdout.write(`${line(headers.map((h) => cell(r[h] ?? "")))}\n`)
}

/** The PostgreSQL server benchmarks use: BENCH_DATABASE_URL, TEST_DATABASE_URL, or the local default. */
export const benchDatabaseUrl = (): string =>
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** A process's resident set (`VmRSS`) or its peak (`VmHWM`) in kB, from /proc (Linux). */
export const rssKb = (pid: number, field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0)

/** Resets the process's peak RSS (Linux clear_refs 5), so VmHWM measures from now. */
export const resetPeak = (pid: number) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5")
    return true
  } catch {
    return false
  }
}

/** How long `f` took (ms), with its value. */
export const timed = async <A>(f: () => Promise<A>) => {
  const t0 = performance.now()
  const value = await f()
  return { ms: performance.now() - t0, value }
}
