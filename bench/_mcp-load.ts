// One measured load of the MCP benches (forms and sharing): an unrecorded warm-up on the same URL
// first, so every server is compared warm, not during the JIT compilation of its first seconds;
// then the load with the server process's own CPU per answered request.
import type { ChildProcess } from "node:child_process"
import autocannon from "autocannon"
import { withServerCpu } from "./_server.js"

export const DURATION = Number(process.env.BENCH_SECONDS ?? 6)
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
export const CLIENTS = 16
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)

export const load = async (options: autocannon.Options, server: ChildProcess) => {
  if (WARMUP_SECONDS > 0) await autocannon({ connections: CLIENTS, duration: WARMUP_SECONDS, ...options })
  const { result: r, cpuPerRequest } = await withServerCpu(server, () =>
    autocannon({ connections: CLIENTS, duration: DURATION, ...options })
  )
  return {
    "req/s": Math.round(r.requests.average),
    "p50 ms": r.latency.p50,
    "p99 ms": r.latency.p99,
    non2xx: r.non2xx,
    "server cpu us/req": cpuPerRequest
  }
}
