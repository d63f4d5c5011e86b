// Port: what visitors sent through the forms of bio pages. Every owner read and delete takes the
// tenant id; the public insert names the bio resource the form was served from.
import { type Effect, Context } from "effect"
import type { StorageError } from "../../kernel/errors.js"

export interface BioSubmissionRecord {
  /** UUID v7: the list's newest-first order pages well on it. */
  readonly id: string
  readonly tenantId: string
  readonly resourceId: string
  readonly blockId: string
  /** The form's title when it was sent (a later edit may rename or remove the block). */
  readonly formTitle: string
  /** Field name -> the visitor's text, in the form's field order. */
  readonly values: Readonly<Record<string, string>>
  readonly createdAt: Date
}

export interface BioSubmissionsService {
  readonly insert: (submission: BioSubmissionRecord) => Effect.Effect<void, StorageError>
  /** Newest first: one page and the total of the resource's submissions. */
  readonly list: (
    tenantId: string,
    resourceId: string,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<
    { readonly items: ReadonlyArray<BioSubmissionRecord>; readonly total: number },
    StorageError
  >
  /** Deleted for good; false when the resource has no such submission. */
  readonly delete: (tenantId: string, resourceId: string, id: string) => Effect.Effect<boolean, StorageError>
}

export class BioSubmissions extends Context.Service<BioSubmissions, BioSubmissionsService>()(
  "@folio/domain/BioSubmissions"
) {}
