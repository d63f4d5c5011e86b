// CSV lines for every export (form responses, bio form submissions): RFC 4180 quoting, and cells a
// spreadsheet would run as a formula defused.

/**
 * One CSV cell: a value a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`, tab or
 * carriage return) gets a leading apostrophe; quotes, commas and line breaks are quoted per RFC 4180.
 */
export const csvCell = (value: string | number | null | undefined): string => {
  if (value === null || value === undefined) return ""
  let text = typeof value === "number" ? String(value) : value
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export const csvLine = (cells: ReadonlyArray<string | number | null | undefined>): string =>
  `${cells.map(csvCell).join(",")}\r\n`
