// Refused fields of an artifact deploy's multipart body (its metadata part, its archive or file
// parts) and of reading one of its files as text.
import { RefusedAt, RefusedField } from "./fields.js"

/** A deploy without its metadata part. */
export class DeployMetadataMissing extends RefusedField(
  "DeployMetadataMissing",
  "metadata",
  "required (a JSON object)"
) {}

/** A metadata part that is not JSON. */
export class DeployMetadataNotJson extends RefusedField(
  "DeployMetadataNotJson",
  "metadata",
  "must be a JSON object"
) {}

/** The metadata part sent twice. */
export class DeployMetadataRepeated extends RefusedField(
  "DeployMetadataRepeated",
  "metadata",
  "send it once"
) {}

/** A metadata part over its size limit. */
export class DeployMetadataTooLong extends RefusedField("DeployMetadataTooLong", "metadata", "too long") {}

/** A text part other than metadata (`field` is its name, cut to 40 characters). */
export class DeployPartUnknown extends RefusedAt("DeployPartUnknown", "not a part of this body") {}

/** Two file parts of one name (`field` is the name, cut to 40 characters). */
export class DeployPartRepeated extends RefusedAt("DeployPartRepeated", "two parts have this name") {}

/** A deploy that sends an archive and file parts, or two archives. */
export class DeployArchiveAndFiles extends RefusedField(
  "DeployArchiveAndFiles",
  "archive",
  "send one archive, or files, not both"
) {}

/** A deploy with neither an archive nor file parts. */
export class DeployContentMissing extends RefusedField(
  "DeployContentMissing",
  "archive",
  "send an archive or files"
) {}

/** metadata.files sent with an archive, whose paths are its own. */
export class DeployArchivePathsListed extends RefusedField(
  "DeployArchivePathsListed",
  "metadata.files",
  "an archive's paths come from the archive"
) {}

/** A metadata.files entry naming a part the body does not have. */
export class DeployFilePartMissing extends RefusedAt(
  "DeployFilePartMissing",
  "no part of the body has this name"
) {}

/** A file part that metadata.files does not place (`field` is its name, cut to 40 characters). */
export class DeployPartUnplaced extends RefusedAt(
  "DeployPartUnplaced",
  "a file part not named in metadata.files"
) {}

/** metadata.delete_paths on a deploy that is not a patch. */
export class DeletePathsWithoutPatch extends RefusedField(
  "DeletePathsWithoutPatch",
  "metadata.delete_paths",
  "only a patch removes paths"
) {}

/** A patch without the deployment it applies to. */
export class PatchBaseMissing extends RefusedField(
  "PatchBaseMissing",
  "metadata.base_deployment_id",
  "required for a patch"
) {}

/** A delete path that is not a file of the patch's base deployment. */
export class DeletePathUnknown extends RefusedAt("DeletePathUnknown", "not a file of the base deployment") {}

/** Reading as text a file that is not an editable text file. */
export class ArtifactFileNotEditable extends RefusedField(
  "ArtifactFileNotEditable",
  "path",
  "not a text file of at most 1 MiB"
) {}

/** Reading as text a file whose bytes are not UTF-8. */
export class ArtifactFileNotUtf8 extends RefusedField(
  "ArtifactFileNotUtf8",
  "path",
  "the file is not UTF-8 text"
) {}

export const ARTIFACT_REFUSALS = [
  DeployMetadataMissing,
  DeployMetadataNotJson,
  DeployMetadataRepeated,
  DeployMetadataTooLong,
  DeployPartUnknown,
  DeployPartRepeated,
  DeployArchiveAndFiles,
  DeployContentMissing,
  DeployArchivePathsListed,
  DeployFilePartMissing,
  DeployPartUnplaced,
  DeletePathsWithoutPatch,
  PatchBaseMissing,
  DeletePathUnknown,
  ArtifactFileNotEditable,
  ArtifactFileNotUtf8
] as const
