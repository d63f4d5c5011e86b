// Uploads: POST /share/api/v1/uploads of a 50 MiB file (the default limit) to the real server on
// PostgreSQL with the filesystem blob store. The server streams the multipart body to the store as
// it arrives, so its peak RSS must grow by a few MiB at most: the peak (VmHWM) is reset through
// /proc/<pid>/clear_refs before each upload and read after it. The first upload after start is
// shown apart: it also grows the heap to its working size (V8 collects the chunks' buffers only
// once their external memory passes a threshold it then adapts). Throughput: one upload at a time,
// then four at once; the same sequence then runs against a bare node:http server that pipes the
// body to a file, the floor for any Node server. The client sends the body in 64 KiB chunks with
// no Content-Length (chunked), the hardest case for the server's limit.
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createTempDatabase } from "../test/storage/targets.js"
import { spawn } from "node:child_process"
import { cli, root, serverNodeFlags, startServer, stop } from "./_server.js"
import { benchDatabaseUrl, printTable, summarize, writeResult } from "./_stats.js"

const MIB = 1024 * 1024
const FILE_BYTES = 50 * MIB - 64 * 1024
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 8)
const CONCURRENT = 4

/** A kernel memory figure of a process in KiB (VmRSS now, VmHWM the peak since the last reset). */
const memoryKib = (pid: number, field: "VmRSS" | "VmHWM") => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN)
}

/** Resets the peak RSS of a process (Linux: writing 5 to clear_refs). */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, "5")

/** One multipart upload of `file`, sent chunked; the time it took and the status. */
const uploadOnce = async (url: string, key: string, file: Uint8Array) => {
  const boundary = `----folio-bench-${randomBytes(8).toString("hex")}`
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBench file\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\n` +
      "Content-Type: application/pdf\r\n\r\n"
  )
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`)
  const started = performance.now()
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head)
      },
      pull(controller) {
        // 64 KiB at a time, as a network would deliver it.
        const sent = (this as { sent?: number }).sent ?? 0
        if (sent >= file.byteLength) {
          controller.enqueue(tail)
          controller.close()
          return
        }
        controller.enqueue(file.subarray(sent, sent + 64 * 1024))
        ;(this as { sent?: number }).sent = sent + 64 * 1024
      }
    }),
    duplex: "half"
  } as RequestInit)
  await response.arrayBuffer()
  return { ms: performance.now() - started, status: response.status }
}

/** The same sequence against a server: the first upload after start, ROUNDS one at a time, four at once. */
const measure = async (
  name: string,
  pid: number,
  upload: (file: Uint8Array) => Promise<{ readonly ms: number; readonly status: number }>,
  file: Uint8Array
) => {
  const rows: Array<Record<string, string | number>> = []
  // A warm-up upload of the same size: code paths compiled, pools open, the heap at its working
  // size, before anything is measured.
  const coldRss = memoryKib(pid, "VmRSS")
  resetPeak(pid)
  const warm = await upload(file)
  if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status}`)
  rows.push({
    case: `${name}: the first upload after start`,
    "median s": warm.ms / 1000,
    "MiB/s": FILE_BYTES / MIB / (warm.ms / 1000),
    "peak RSS growth MiB (max)": (memoryKib(pid, "VmHWM") - coldRss) / 1024,
    "peak RSS growth MiB (median)": Number.NaN
  })
  const growth: Array<number> = []
  const times: Array<number> = []
  for (let i = 0; i < ROUNDS; i++) {
    const before = memoryKib(pid, "VmRSS")
    resetPeak(pid)
    const one = await upload(file)
    if (one.status !== 201) throw new Error(`upload answered ${one.status}`)
    growth.push((memoryKib(pid, "VmHWM") - before) / 1024)
    times.push(one.ms)
  }
  const median = summarize(times).median
  rows.push({
    case: `${name}: 1 at a time (${ROUNDS} rounds)`,
    "median s": median / 1000,
    "MiB/s": FILE_BYTES / MIB / (median / 1000),
    "peak RSS growth MiB (max)": Math.max(...growth),
    "peak RSS growth MiB (median)": summarize(growth).median
  })
  const before = memoryKib(pid, "VmRSS")
  resetPeak(pid)
  const started = performance.now()
  const all = await Promise.all(Array.from({ length: CONCURRENT }, () => upload(file)))
  const seconds = (performance.now() - started) / 1000
  if (all.some((u) => u.status !== 201)) throw new Error("a concurrent upload failed")
  rows.push({
    case: `${name}: ${CONCURRENT} at once`,
    "median s": seconds,
    "MiB/s": (CONCURRENT * FILE_BYTES) / MIB / seconds,
    "peak RSS growth MiB (max)": (memoryKib(pid, "VmHWM") - before) / 1024,
    "peak RSS growth MiB (median)": Number.NaN
  })
  rows.push({
    case: `${name}: RSS after, MiB`,
    "median s": Number.NaN,
    "MiB/s": Number.NaN,
    "peak RSS growth MiB (max)": memoryKib(pid, "VmRSS") / 1024,
    "peak RSS growth MiB (median)": Number.NaN
  })
  return rows
}

export const run = async () => {
  const db = await createTempDatabase(benchDatabaseUrl())
  const dataDir = mkdtempSync(join(tmpdir(), "folio-bench-uploads-"))
  const file = randomBytes(FILE_BYTES)
  new TextEncoder().encodeInto("%PDF-1.7\n", file)
  try {
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      BLOB_STORE: "fs",
      SHARING_REQUESTS_PER_KEY: "1000000",
      SHARING_STORAGE_QUOTA_BYTES: String(64 * 1024 * MIB)
    }
    const ws = /workspace ([0-9a-f-]{36})/.exec(await cli(env, ["workspace", "create", "bench"]))?.[1] ?? ""
    const key =
      /folio_[A-Za-z0-9]{12}_[A-Za-z0-9]{43}/.exec(
        await cli(env, ["key", "create", "--workspace", ws, "--scopes", "all", "--service", "sharing"])
      )?.[0] ?? ""
    const server = await startServer(env)
    const pid = server.child.pid ?? 0
    const rows: Array<Record<string, string | number>> = []
    try {
      rows.push(
        ...(await measure(
          "folio POST /share/api/v1/uploads",
          pid,
          (f) => uploadOnce(`${server.origin}/share/api/v1/uploads`, key, f),
          file
        ))
      )
    } finally {
      await stop(server.child)
    }
    const raw = spawn(
      process.execPath,
      [...serverNodeFlags(), "--import", "tsx", `${root}bench/_raw-upload.ts`],
      {
        stdio: ["ignore", "pipe", "inherit"]
      }
    )
    try {
      const port = await new Promise<number>((resolve) =>
        raw.stdout?.once("data", (d: Buffer) => resolve((JSON.parse(d.toString()) as { port: number }).port))
      )
      rows.push(
        ...(await measure(
          "bare node:http pipe to a file",
          raw.pid ?? 0,
          (f) => uploadOnce(`http://127.0.0.1:${port}/`, key, f),
          file
        ))
      )
    } finally {
      await stop(raw)
    }
    printTable(rows)
    process.stdout.write(
      `written ${writeResult("uploads", { at: new Date().toISOString(), fileBytes: FILE_BYTES, rows })}\n`
    )
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
    await db.drop()
  }
}
