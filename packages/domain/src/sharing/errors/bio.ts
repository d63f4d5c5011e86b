// Refused fields of a bio: replacing its pages and blocks, uploading a block's file, and a
// visitor's answer to one of its form blocks.
import { Data } from "effect"
import type { BioBlock } from "../bio/bio.js"
import { RefusedAt } from "./fields.js"

/** A page id that no page of the bio has. */
export class BioPageUnknown extends RefusedAt("BioPageUnknown", "no page of this bio has this id") {}

/** Two pages of a replacement with one id. */
export class BioPageIdRepeated extends RefusedAt("BioPageIdRepeated", "two pages have this id") {}

/** Two pages of a replacement with one slug. */
export class BioPageSlugRepeated extends RefusedAt("BioPageSlugRepeated", "two pages have this slug") {}

/** Two blocks of a replacement with one id. */
export class BioBlockIdRepeated extends RefusedAt("BioBlockIdRepeated", "two blocks have this id") {}

/** A kept block (named by its id) sent with another type: a block's type is fixed. */
export class BioBlockTypeImmutable extends Data.TaggedError("BioBlockTypeImmutable")<{
  readonly field: string
  readonly blockId: string
  readonly blockType: BioBlock["type"]
}> {
  get reason() {
    return `block ${this.blockId} is a ${this.blockType} block`
  }
  override get message() {
    return `${this.field}: ${this.reason}`
  }
}

/** An image or file block added by a replacement: those come only from uploading their file. */
export class BioMediaBlockNotUploaded extends Data.TaggedError("BioMediaBlockNotUploaded")<{
  readonly field: string
  readonly kind: "image" | "file"
}> {
  get reason() {
    return `${this.kind === "image" ? "an image" : "a file"} block is added by uploading its file; name an existing one to keep it`
  }
  override get message() {
    return `${this.field}: ${this.reason}`
  }
}

/** A form block with two fields of one name. */
export class BioFormFieldNameRepeated extends RefusedAt(
  "BioFormFieldNameRepeated",
  "two fields have one name"
) {}

/** The page already holds as many blocks as it may. */
export class BioPageFull extends Data.TaggedError("BioPageFull")<{ readonly maxBlocks: number }> {
  get field() {
    return "pageID"
  }
  get reason() {
    return `a page holds at most ${this.maxBlocks} blocks`
  }
  override get message() {
    return `pageID: ${this.reason}`
  }
}

/** A file uploaded for a block that holds none (only image and file blocks do). */
export class BioBlockTakesNoFile extends Data.TaggedError("BioBlockTakesNoFile")<{
  readonly blockType: BioBlock["type"]
}> {
  get field() {
    return "blockID"
  }
  get reason() {
    return `a ${this.blockType} block has no file`
  }
  override get message() {
    return `blockID: ${this.reason}`
  }
}

/** A thumbnail uploaded for a block that shows none (only link, image and file blocks do). */
export class BioBlockTakesNoThumbnail extends Data.TaggedError("BioBlockTakesNoThumbnail")<{
  readonly blockType: BioBlock["type"]
}> {
  get field() {
    return "blockID"
  }
  get reason() {
    return `a ${this.blockType} block has no thumbnail`
  }
  override get message() {
    return `blockID: ${this.reason}`
  }
}

/** A visitor's answer leaves a required form field empty. */
export class BioFormFieldMissing extends RefusedAt("BioFormFieldMissing", "required") {}

/** A visitor's answer to an email field that does not look like an email address. */
export class BioFormFieldNotEmail extends RefusedAt("BioFormFieldNotEmail", "an email address") {}

export const BIO_REFUSALS = [
  BioPageUnknown,
  BioPageIdRepeated,
  BioPageSlugRepeated,
  BioBlockIdRepeated,
  BioBlockTypeImmutable,
  BioMediaBlockNotUploaded,
  BioFormFieldNameRepeated,
  BioPageFull,
  BioBlockTakesNoFile,
  BioBlockTakesNoThumbnail,
  BioFormFieldMissing,
  BioFormFieldNotEmail
] as const
