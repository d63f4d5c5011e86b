// How a refused console action is answered: its status by the error's tag, and its message (the
// domain's messages are value-free; a storage failure gets a generic one, its details are logged).
const STATUS_BY_TAG: Readonly<Record<string, number>> = {
  NotAllowed: 403,
  ScopeNotAllowed: 403,
  NotAMember: 404,
  MemberNotFound: 404,
  InvitationNotFound: 404,
  PasskeyNotFound: 404,
  SessionNotFound: 404,
  ApiKeyNotFound: 404,
  ConnectedAppNotFound: 404,
  TenantNotFound: 404,
  LinkInvalid: 404,
  LastOwner: 409,
  AlreadyMember: 409,
  LastSignInMethod: 409,
  SignInToAccept: 409,
  InvalidCredentials: 401,
  PasskeyRejected: 400,
  TooManyAttempts: 429,
  StorageError: 503
}

export interface Refusal {
  readonly tag: string
  readonly status: number
  readonly message: string
  readonly retryAfterSeconds?: number
}

const tagOf = (u: unknown): string =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" ? u._tag : "Unknown"

export const refusalOf = (error: unknown): Refusal => {
  const tag = tagOf(error)
  if (tag === "StorageError" || tag === "Unknown")
    return {
      tag,
      status: tag === "Unknown" ? 500 : 503,
      message: "the service is unavailable; try again shortly"
    }
  const message = error instanceof Error ? error.message : "this could not be done"
  const retry = (error as { readonly retryAfterSeconds?: unknown }).retryAfterSeconds
  return {
    tag,
    status: STATUS_BY_TAG[tag] ?? 422,
    message,
    ...(typeof retry === "number" ? { retryAfterSeconds: retry } : {})
  }
}
