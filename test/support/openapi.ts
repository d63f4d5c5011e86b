// The parts of the served OpenAPI document the tests read, and Redocly's lint of a document.
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

export type Json = Record<string, unknown>

export interface OpenApiOperation {
  readonly operationId: string
  readonly requestBody?: { required?: boolean; content: Record<string, { schema: Json }> }
  readonly responses: Record<string, { description: string; content?: Record<string, { schema: Json }> }>
  readonly security?: ReadonlyArray<unknown>
}

export interface OpenApiDocument {
  readonly info: { description?: string }
  readonly paths: Record<string, Record<string, OpenApiOperation>>
  readonly components: { schemas: Record<string, Json> }
}

const run = promisify(execFile)
/** The repository root (where node_modules is). */
export const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url))

/** Redocly's recommended lint of a document file, run from `cwd`: its whole output (stdout and stderr). */
export const redoclyLint = async (documentFile: string, cwd: string) => {
  const { stdout, stderr } = await run(
    process.execPath,
    [`${repositoryRoot}node_modules/@redocly/cli/bin/cli.js`, "lint", documentFile, "--format=stylish"],
    {
      cwd,
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: "off",
        REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
        NO_COLOR: "1"
      },
      timeout: 120_000
    }
  )
  return `${stdout}${stderr}`
}
