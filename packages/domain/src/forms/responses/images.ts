// The images of a respondent's page: an image block, a choice image, the theme's logo or cover of the
// form's current published version. Only keys that version points at are served, so the public
// route cannot read any other blob (another form's assets, respondents' uploads).
import { Effect, Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import { type BlobObject, BlobStore } from "../../kernel/ports/blob-store.js"
import type { FormRepository } from "../ports/forms.js"
import { IMAGE_MIME_TYPES, publicImageKeys } from "../assets.js"
import { ImageNotFound, type PublishedFormNotFound } from "../errors.js"
import { loadPublishedForm } from "./respondent.js"

/**
 * The image at `key` for the published form at `slug`: ImageNotFound unless the published definition
 * or the form's settings point at it, the object is stored, and it is stored as an image.
 */
export const loadPublicImage = (
  slug: string,
  key: string
): Effect.Effect<
  BlobObject,
  PublishedFormNotFound | ImageNotFound | StorageError,
  FormRepository | BlobStore
> =>
  Effect.gen(function* () {
    const published = yield* loadPublishedForm(slug)
    if (!publicImageKeys(published.definition, published.settings).has(key)) return yield* new ImageNotFound()
    const object = yield* Effect.flatMap(Effect.service(BlobStore), (blobs) => blobs.get(key))
    if (Option.isNone(object) || !IMAGE_MIME_TYPES.has(object.value.contentType))
      return yield* new ImageNotFound()
    return object.value
  })
