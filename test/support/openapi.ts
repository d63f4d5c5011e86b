// The parts of the served OpenAPI document the tests read.
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
