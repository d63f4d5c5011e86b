// Baseline for bench/forms-api.ts: a bare node:http server answering the same primary-key read with
// the same SQL driver (pg), no framework, no auth. Run as a child process.
import { createServer } from "node:http"
import pg from "pg"

const url = process.env.RAW_DATABASE_URL ?? ""
const workspaceId = process.env.RAW_WORKSPACE_ID ?? ""
const pool = new pg.Pool({ connectionString: url, max: 10 })

const server = createServer((req, res) => {
  const id = (req.url ?? "").split("/").pop() ?? ""
  pool
    .query(
      `select id, workspace_id, kind, title, slug, status, draft_revision, draft_definition, settings, settings_signature,
              current_version_id, created_at, updated_at
       from forms where id = $1 and workspace_id = $2 and deleted_at is null`,
      [id, workspaceId]
    )
    .then((result) => {
      const row = result.rows[0]
      res.writeHead(row === undefined ? 404 : 200, { "content-type": "application/json" })
      res.end(JSON.stringify({ data: row ?? null }))
    })
    .catch(() => {
      res.writeHead(500)
      res.end()
    })
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 })}\n`
  )
})
process.on("SIGTERM", () => {
  server.close()
  void pool.end()
})
