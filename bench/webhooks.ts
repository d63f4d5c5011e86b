// Webhook delivery throughput: a server process on PostgreSQL delivers the resource.created events
// of 1,000 links (made by bulk create, 200 a call) to a local HTTPS receiver, first to one endpoint
// (its deliveries go one at a time, in order), then to four endpoints at once (one job each, run by
// the instance's workers in parallel). Prints deliveries per second and event-to-delivery latency.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createTempDatabase } from "../test/storage/targets.js"
import { startHttpsReceiver } from "../test/support/https-receiver.js"
import { provision, startServer, stop } from "./_server.js"
import { benchDatabaseUrl, printTable, quantile, writeResult } from "./_stats.js"

const LINKS = 1000

export const run = async () => {
  const db = await createTempDatabase(benchDatabaseUrl())
  const dataDir = mkdtempSync(join(tmpdir(), "folio-bench-webhooks-"))
  const receiver = await startHttpsReceiver()
  const rows: Array<Record<string, string | number>> = []
  try {
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      SHARING_REQUESTS_PER_KEY: "1000000",
      SHARING_LINK_CREATIONS_PER_HOUR: "1000000",
      WEBHOOK_ALLOW_LOOPBACK: "true",
      WEBHOOK_CA_FILE: receiver.caFile,
      JOBS_CONCURRENCY: "4",
      JOBS_POLL_MS: "100"
    }
    const { key } = await provision(env, "bench", "sharing")
    const server = await startServer(env)
    const api = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.origin}/share/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
        body: JSON.stringify(body)
      })
      return (await response.json()) as Record<string, unknown>
    }
    try {
      for (const endpoints of [1, 4]) {
        const hooks: Array<string> = []
        for (let i = 0; i < endpoints; i++) {
          const hook = await api("POST", "/webhooks", {
            name: `bench ${endpoints}.${i}`,
            url: `${receiver.url}?e=${endpoints}.${i}`,
            events: ["resource.created"]
          })
          hooks.push(hook.id as string)
        }
        const before = receiver.received.length
        const expected = LINKS * endpoints
        const started = Date.now()
        for (let batch = 0; batch < LINKS / 200; batch++)
          await api(
            "POST",
            "/resources/bulk-create",
            {
              items: Array.from({ length: 200 }, (_, i) => ({
                type: "link",
                target_url: `https://example.com/${endpoints}/${batch}/${i}`
              }))
            },
            { "idempotency-key": `bench-${endpoints}-${batch}` }
          )
        const created = Date.now()
        while (receiver.received.length - before < expected) {
          if (Date.now() - started > 300_000) throw new Error("deliveries did not all arrive")
          await new Promise((r) => setTimeout(r, 20))
        }
        const done = Date.now()
        const latencies = receiver.received
          .slice(before)
          .map((r) => r.at - Date.parse((JSON.parse(r.body) as { created_at: string }).created_at))
          .sort((a, b) => a - b)
        rows.push({
          endpoints,
          deliveries: expected,
          "events made (s)": ((created - started) / 1000).toFixed(2),
          "all delivered (s)": ((done - started) / 1000).toFixed(2),
          "deliveries/s": Math.round(expected / ((done - started) / 1000)),
          "latency p50 (ms)": Math.round(quantile(latencies, 0.5)),
          "latency p95 (ms)": Math.round(quantile(latencies, 0.95))
        })
        for (const id of hooks) await api("POST", `/webhooks/${id}/disable`, {})
      }
    } finally {
      await stop(server.child)
    }
    printTable(rows)
    writeResult("webhooks", { rows })
  } finally {
    await receiver.close()
    await db.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
