// The respondent JSON routes, as the page calls them. Every call answers `{ status, body }` and never
// throws for an HTTP status; a network failure answers status 0.
import type { QuizResult } from "@folio/domain/browser"

export interface Issue {
  readonly path: ReadonlyArray<string | number>
  readonly rule: string
}

export interface Started {
  readonly responseId: string
  readonly token: string
  readonly presentation: { choices: Record<string, string[]>; groups: Record<string, string[]> } | null
  readonly repeatWarning: boolean
  readonly answers?: Record<string, unknown>
  /** On a resume: `completed` when a form that allows editing reopened a completed response. */
  readonly status?: "partial" | "completed"
}

export interface Reply<T> {
  readonly status: number
  readonly data?: T
  readonly error?: { code: string; message: string; details?: { issues?: Issue[]; reason?: string } }
}

/** A JSON answer as `{ status, data?, error? }` (an empty body is the status alone). */
export const replyOf = async <T>(response: Response): Promise<Reply<T>> => {
  const text = await response.text()
  const json = text === "" ? {} : (JSON.parse(text) as { data?: T; error?: Reply<T>["error"] })
  return { status: response.status, ...json } as Reply<T>
}

export const call = async <T>(method: string, url: string, body?: unknown): Promise<Reply<T>> => {
  try {
    const response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return await replyOf<T>(response)
  } catch {
    return { status: 0 }
  }
}

export const makeApi = (slug: string) => {
  const base = `/f/${encodeURIComponent(slug)}/responses`
  return {
    resume: () => call<Started>("POST", `${base}/resume`, {}),
    start: (params: Record<string, string>, confirmRepeat: boolean, consent?: ReadonlyArray<string>) =>
      call<Started>("POST", base, {
        params,
        ...(confirmRepeat ? { confirmRepeat: true } : {}),
        ...(consent === undefined ? {} : { consent })
      }),
    save: (id: string, token: string, answers: Record<string, unknown>) =>
      call<unknown>("PATCH", `${base}/${id}`, { token, answers }),
    complete: (id: string, token: string, answers: Record<string, unknown>) =>
      call<{ readonly quizzes?: ReadonlyArray<QuizResult>; readonly withdrawalPath?: string }>(
        "POST",
        `${base}/${id}/complete`,
        { token, answers }
      ),
    /** One file as the raw body, with upload progress (fetch cannot report it). */
    upload: (
      id: string,
      token: string,
      blockId: string,
      file: File,
      onProgress: (fraction: number) => void
    ): Promise<Reply<{ key: string; filename: string }>> =>
      new Promise((resolve) => {
        const xhr = new XMLHttpRequest()
        xhr.open(
          "POST",
          `${base}/${id}/files?blockId=${encodeURIComponent(blockId)}&filename=${encodeURIComponent(file.name)}`
        )
        xhr.setRequestHeader("x-response-token", token)
        if (file.type !== "") xhr.setRequestHeader("content-type", file.type)
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable) onProgress(e.loaded / e.total)
        }
        xhr.onload = () => {
          let json: Partial<Reply<{ key: string; filename: string }>> = {}
          try {
            json = JSON.parse(xhr.responseText) as typeof json
          } catch {
            json = {}
          }
          resolve({ ...json, status: xhr.status })
        }
        xhr.onerror = () => resolve({ status: 0 })
        xhr.send(file)
      })
  }
}

export type Api = ReturnType<typeof makeApi>
