// A small client of the sharing REST API for tests: one call answers status, headers, the JSON body
// (when JSON) and the raw bytes. `body` is sent as JSON; `text` as-is with its own content type.
import { bearer } from "./keys.js"

export const SHARING_API = "/share/api/v1"
export type Json = Record<string, unknown>

export interface CallOptions {
  readonly key?: string
  readonly body?: unknown
  readonly text?: { readonly contentType: string; readonly content: string }
  /** A multipart body (fetch sets its content type with the boundary). */
  readonly form?: FormData
  readonly headers?: Record<string, string>
}

export interface SharingClient {
  readonly call: (
    method: string,
    path: string,
    options?: CallOptions
  ) => Promise<{ status: number; headers: Headers; body: Json; bytes: Uint8Array }>
}

export const sharingClientOf = (origin: string): SharingClient => ({
  call: async (method, path, options = {}) => {
    const contentType =
      options.text !== undefined
        ? { "content-type": options.text.contentType }
        : options.body === undefined
          ? {}
          : { "content-type": "application/json" }
    const body =
      options.form !== undefined
        ? { body: options.form }
        : options.text !== undefined
          ? { body: options.text.content }
          : options.body === undefined
            ? {}
            : { body: JSON.stringify(options.body) }
    const response = await fetch(`${origin}${SHARING_API}${path}`, {
      method,
      headers: {
        ...(options.key === undefined ? {} : bearer(options.key)),
        ...contentType,
        ...options.headers
      },
      ...body
    })
    const bytes = new Uint8Array(await response.arrayBuffer())
    const text = new TextDecoder().decode(bytes)
    let json: Json = {}
    if ((response.headers.get("content-type") ?? "").includes("json") && text !== "") json = JSON.parse(text)
    return { status: response.status, headers: response.headers, body: json, bytes }
  }
})
