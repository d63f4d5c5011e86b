import type { BioBlock } from "../bio/bio.js"
import { RefusedAt, RefusedAtWith, RefusedFieldWith } from "./fields.js"

/** A page id that no page of the bio has. */
export class BioPageUnknown extends RefusedAt("BioPageUnknown", "no page of this bio has this id") {}

/** Two pages of a replacement with one id. */
export class BioPageIdRepeated extends RefusedAt("BioPageIdRepeated", "two pages have this id") {}

/** Two pages of a replacement with one slug. */
export class BioPageSlugRepeated extends RefusedAt("BioPageSlugRepeated", "two pages have this slug") {}

/** Two blocks of a replacement with one id. */
export class BioBlockIdRepeated extends RefusedAt("BioBlockIdRepeated", "two blocks have this id") {}

/** A kept block (named by its id) sent with another type: a block's type is fixed. */
export class BioBlockTypeImmutable extends RefusedAtWith(
  "BioBlockTypeImmutable",
  (e: { readonly field: string; readonly blockId: string; readonly blockType: BioBlock["type"] }) =>
    `block ${e.blockId} is a ${e.blockType} block`
) {}

/** An image or file block added by a replacement: those come only from uploading their file. */
export class BioMediaBlockNotUploaded extends RefusedAtWith(
  "BioMediaBlockNotUploaded",
  (e: { readonly field: string; readonly kind: "image" | "file" }) =>
    `${e.kind === "image" ? "an image" : "a file"} block is added by uploading its file; name an existing one to keep it`
) {}

/** A form block with two fields of one name. */
export class BioFormFieldNameRepeated extends RefusedAt(
  "BioFormFieldNameRepeated",
  "two fields have one name"
) {}

/** The page already holds as many blocks as it may. */
export class BioPageFull extends RefusedFieldWith(
  "BioPageFull",
  "pageID",
  (e: { readonly maxBlocks: number }) => `a page holds at most ${e.maxBlocks} blocks`
) {}

/** A file uploaded for a block that holds none (only image and file blocks do). */
export class BioBlockTakesNoFile extends RefusedFieldWith(
  "BioBlockTakesNoFile",
  "blockID",
  (e: { readonly blockType: BioBlock["type"] }) => `a ${e.blockType} block has no file`
) {}

/** A thumbnail uploaded for a block that shows none (only link, image and file blocks do). */
export class BioBlockTakesNoThumbnail extends RefusedFieldWith(
  "BioBlockTakesNoThumbnail",
  "blockID",
  (e: { readonly blockType: BioBlock["type"] }) => `a ${e.blockType} block has no thumbnail`
) {}

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
