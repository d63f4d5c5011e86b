// The shape of a sharing MCP tool: strict input and output schemas (JSON Schemas for tools/list are
// generated from them), the sharing operations it may run (authorised through the domain's
// SHARING_OPERATION_SCOPES table, the one REST and OpenAPI read), and a run over the use cases.
import type { SharingOperation } from "@folio/domain"
import type { Effect, Schema } from "effect"

export interface SharingToolContext {
  /** PUBLIC_ORIGIN: public URLs of resources, upload pages and downloads are built on it. */
  readonly publicOrigin: string
}

export interface SharingToolSpec<I, IE, O, OE> {
  readonly name: string
  readonly title: string
  readonly description: string
  /** Every operation the tool can run: tools/list shows it to a caller allowed at least one. */
  readonly operations: ReadonlyArray<SharingOperation>
  /** The operations this input runs: the caller needs the scopes of each (checked before `run`). */
  readonly operationsOf: (input: I) => ReadonlyArray<SharingOperation>
  readonly input: Schema.Codec<I, IE>
  readonly output: Schema.Codec<O, OE>
  // biome-ignore lint/suspicious/noExplicitAny: each tool's requirements are the domain's ports
  readonly run: (input: I, context: SharingToolContext) => Effect.Effect<O, unknown, any>
}

export const sharingTool = <I, IE, O, OE>(spec: SharingToolSpec<I, IE, O, OE>) => spec

// biome-ignore lint/suspicious/noExplicitAny: the tool list mixes input and output types
export type AnySharingTool = SharingToolSpec<any, any, any, any>
