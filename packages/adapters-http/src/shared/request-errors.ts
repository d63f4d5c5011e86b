// The failures the HTTP layer finds itself, before or around any use case: a request it cannot take,
// a body over its cap, a path with nothing behind it, a refused caller, a fault of the server. Every
// service's error table gives each its code, as it does the domain's errors.
import type { Issue } from "@folio/domain"
import { Data } from "effect"

/** The request cannot be read as sent: not JSON, wrong content type, text no store keeps, bad params. */
export class RequestInvalid extends Data.TaggedError("RequestInvalid")<{
  readonly message: string
  readonly issues?: ReadonlyArray<Issue> | undefined
}> {}

/** The body cannot be parsed at all: not JSON, not multipart. */
export class BodyUnreadable extends Data.TaggedError("BodyUnreadable")<{ readonly message: string }> {}

/** The body is over the route's cap. */
export class RequestTooLarge extends Data.TaggedError("RequestTooLarge")<{ readonly message: string }> {}

/** Nothing at this path: no route, no such file. */
export class NothingHere extends Data.TaggedError("NothingHere")<{ readonly message: string }> {}

/** The caller may not do this, for a reason of the transport (its Origin, an expired signed link). */
export class RequestRefused extends Data.TaggedError("RequestRefused")<{ readonly message: string }> {}

/** The server failed (a defect, a dependency down); the message is ours and safe to show. */
export class ServerFault extends Data.TaggedError("ServerFault")<{ readonly message: string }> {}

/** What a client reads of any failure of ours: the cause is logged, never sent. */
export const INTERNAL_SERVER_ERROR = "internal server error"

export const serverFault = () => new ServerFault({ message: INTERNAL_SERVER_ERROR })

/** Every failure the HTTP layer raises of its own. */
export type RequestError =
  | RequestInvalid
  | BodyUnreadable
  | RequestTooLarge
  | NothingHere
  | RequestRefused
  | ServerFault
