import { createTempDatabase } from "../test/storage/targets.js"
import { provision, startServer, stop } from "./_server.js"
import { CLIENTS, DURATION, load, ROUNDS } from "./_mcp-load.js"
import { benchDatabaseUrl, printTable, summarize, writeResult } from "./_stats.js"

export async function run(): Promise<void> {
  const db = await createTempDatabase(benchDatabaseUrl())
  const rows: Array<Record<string, string | number>> = []
  try {
    // The sharing budgets lifted, as _server lifts the forms ones.
    const env = {
      DATABASE_URL: db.url,
      SHARING_REQUESTS_PER_KEY: "1000000000",
      SHARING_REQUESTS_PER_IP: "1000000000"
    }
    const { key } = await provision(env, "sharing-mcp-bench", "sharing")
    const server = await startServer(env)
    try {
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }
      // A link with rules and variants: a realistic read, the same one both surfaces answer.
      const created = await fetch(`${server.origin}/share/api/v1/resources`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          type: "link",
          slug: "bench-link",
          title: "Bench link",
          target_url: "https://example.com/landing",
          labels: ["bench", "launch"],
          redirect_rules: Array.from({ length: 5 }, (_, i) => ({
            conditions: { country: [["DE", "FR", "US", "GB", "JP"][i] ?? "DE"] },
            target_url: `https://example.com/country/${i}`
          })),
          test_variants: [
            { url: "https://example.com/a", weight: 1 },
            { url: "https://example.com/b", weight: 1 }
          ]
        })
      })
      if (created.status !== 201) throw new Error(`creating the link answered ${created.status}`)
      const call = {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "sharing_query", arguments: { action: "get", slug: "bench-link" } }
      }
      const mcpHeaders = { ...headers, accept: "application/json, text/event-stream" }
      // One check that the call really answers the link, so the load measures real work.
      const probe = await fetch(`${server.origin}/share/mcp`, {
        method: "POST",
        headers: mcpHeaders,
        body: JSON.stringify(call)
      })
      const probed = (await probe.json()) as {
        result?: { structuredContent?: { resource?: { resource?: { slug: string } } } }
      }
      if (probed.result?.structuredContent?.resource?.resource?.slug !== "bench-link")
        throw new Error("sharing_query did not return the link")

      const restLoad = () =>
        load({ url: `${server.origin}/share/api/v1/resources/bench-link`, headers }, server.child)
      const mcpLoad = () =>
        load(
          {
            url: `${server.origin}/share/mcp`,
            method: "POST",
            headers: mcpHeaders,
            body: JSON.stringify(call)
          },
          server.child
        )
      // Alternating rounds: a disturbance of the shared machine falls on both; the median round is the figure.
      const rounds: Array<{ rest: Awaited<ReturnType<typeof load>>; mcp: Awaited<ReturnType<typeof load>> }> =
        []
      for (let round = 0; round < ROUNDS; round++) {
        const rest = await restLoad()
        const mcp = await mcpLoad()
        rounds.push({ rest, mcp })
        rows.push({ round: round + 1, what: "REST GET /resources/{slug}", ...rest })
        rows.push({ round: round + 1, what: "MCP tools/call sharing_query get", ...mcp })
      }
      printTable(rows)
      const ratio = (key: "p50 ms" | "p99 ms" | "server cpu us/req") =>
        summarize(rounds.map((r) => r.mcp[key] / Math.max(r.rest[key], 0.001))).median
      const cpuRatio = ratio("server cpu us/req")
      const extraCpu = summarize(
        rounds.map((r) => r.mcp["server cpu us/req"] - r.rest["server cpu us/req"])
      ).median
      process.stdout.write(
        `\nsharing MCP/REST, median of ${ROUNDS} alternating rounds at ${CLIENTS} clients: server CPU per call ${cpuRatio.toFixed(2)}x (target: within 1.5x; ${cpuRatio <= 1.5 ? "met" : "NOT met"}), latency p50 ${ratio("p50 ms").toFixed(2)}x, p99 ${ratio("p99 ms").toFixed(2)}x\n` +
          `MCP costs ${Math.round(extraCpu)} us of server CPU per call more than REST (median round)\n`
      )
      process.stdout.write(
        `written ${writeResult("sharing-mcp", { at: new Date().toISOString(), clients: CLIENTS, durationSeconds: DURATION, rounds: ROUNDS, cpuRatio, rows })}\n`
      )
    } finally {
      await stop(server.child)
    }
  } finally {
    await db.drop()
  }
}
