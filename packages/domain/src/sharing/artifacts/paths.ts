// The file paths of an HTML artifact (sharing-api.md, HTML artifacts): plain relative paths (no `..`,
// no backslashes, no absolute or empty segments, no control characters), none reserved (`.auth`,
// `_bidama`), and no two that differ only by letter case (a site must serve the same on every file
// system). Pure: the archive reader and the multipart route both check their paths here.
import { Result } from "effect"

/** Longest path kept, in characters (a URL path stays well within every limit). */
export const MAX_ARTIFACT_PATH_LENGTH = 512

/** Path starts the platform keeps for itself. */
export const RESERVED_ARTIFACT_PREFIXES: ReadonlyArray<string> = [".auth", "_bidama"]

/** Why a path is refused (value-free: the path itself is never echoed). */
export type ArtifactPathProblem =
  | "empty"
  | "too_long"
  | "absolute"
  | "backslash"
  | "dot_segment"
  | "empty_segment"
  | "control_character"
  | "reserved"
  | "directory"

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/

/** The path as stored (unchanged: paths are taken as sent), or why it is refused. */
export const checkArtifactPath = (path: string): Result.Result<string, ArtifactPathProblem> => {
  if (path === "") return Result.fail("empty")
  if ([...path].length > MAX_ARTIFACT_PATH_LENGTH) return Result.fail("too_long")
  if (path.includes("\\")) return Result.fail("backslash")
  if (CONTROL.test(path)) return Result.fail("control_character")
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return Result.fail("absolute")
  if (path.endsWith("/")) return Result.fail("directory")
  const segments = path.split("/")
  if (segments.some((s) => s === "")) return Result.fail("empty_segment")
  if (segments.some((s) => s === "." || s === "..")) return Result.fail("dot_segment")
  if (RESERVED_ARTIFACT_PREFIXES.some((prefix) => path.startsWith(prefix))) return Result.fail("reserved")
  return Result.succeed(path)
}

/** What each problem means, for the error's explanation. */
export const ARTIFACT_PATH_PROBLEMS: Readonly<Record<ArtifactPathProblem, string>> = {
  empty: "a file path is empty",
  too_long: `a file path is longer than ${MAX_ARTIFACT_PATH_LENGTH} characters`,
  absolute: "a file path is absolute; paths are relative to the site root",
  backslash: "a file path holds a backslash; use / between folders",
  dot_segment: "a file path holds a . or .. segment",
  empty_segment: "a file path holds an empty segment (//)",
  control_character: "a file path holds a control character",
  reserved: "a file path starts with a reserved name (.auth, _bidama)",
  directory: "a file path names a folder, not a file"
}

/**
 * The index of the first path that clashes with an earlier one: the same path twice, or two that
 * differ only by letter case; undefined when every path is its own.
 */
export const firstClash = (paths: ReadonlyArray<string>): number | undefined => {
  const seen = new Set<string>()
  for (const [i, path] of paths.entries()) {
    const key = path.toLowerCase()
    if (seen.has(key)) return i
    seen.add(key)
  }
  return undefined
}

/** Whether a path is an HTML page. */
export const isHtmlPath = (path: string): boolean => /\.html?$/i.test(path)

/**
 * The site's entry page: `index.html` at the root when there is one, else the first `.html` or
 * `.htm` file in the order given; `undefined` when there is none. The caller refuses an empty one.
 */
export const entryPageOf = <F extends { readonly path: string }>(files: ReadonlyArray<F>): F | undefined =>
  files.find((f) => f.path === "index.html") ?? files.find((f) => isHtmlPath(f.path))

/** Extensions of files the API shows as editable text (`GET .../artifact/files`). */
const TEXT_EXTENSIONS = new Set([
  "html",
  "htm",
  "css",
  "js",
  "mjs",
  "cjs",
  "json",
  "txt",
  "md",
  "svg",
  "xml",
  "csv",
  "map",
  "webmanifest",
  "ts",
  "tsx",
  "jsx",
  "yaml",
  "yml",
  "toml"
])

/** The most bytes of one text file `GET .../artifact/source` reads (sharing-api.md, limits). */
export const ARTIFACT_SOURCE_MAX_BYTES = 1024 * 1024

/** Whether a file is shown as editable text: a text extension, and small enough to read back. */
export const isEditableText = (path: string, size: number): boolean => {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase()
  return path.includes(".") && TEXT_EXTENSIONS.has(ext) && size <= ARTIFACT_SOURCE_MAX_BYTES
}

/**
 * The file a request path names on a deployment's origin: `/` is the entry page, a folder (`a/`) its
 * `index.html`, else the exact path (its segments percent-decoded), else `{path}/index.html`;
 * undefined when none is there (the origin then answers its `404.html`, if it has one).
 */
export const siteFileFor = <F extends { readonly path: string }>(
  files: ReadonlyArray<F>,
  entryPath: string,
  requestPath: string
): F | undefined => {
  let path: string
  try {
    path = requestPath
      .split("/")
      .map((s) => decodeURIComponent(s))
      .join("/")
      .replace(/^\/+/, "")
  } catch {
    return undefined
  }
  const byPath = (p: string) => files.find((f) => f.path === p)
  if (path === "") return byPath(entryPath)
  if (path.endsWith("/")) return byPath(`${path}index.html`)
  return byPath(path) ?? byPath(`${path}/index.html`)
}
