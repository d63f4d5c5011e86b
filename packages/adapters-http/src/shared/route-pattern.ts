// A route's path as a pattern over request URLs, shared by the guard's body rules and its keyed
// endpoints so both recognise a route as the router does.
const escapeRegExp = (text: string) => text.replace(/[.*+?^$|()[\]{}\\]/g, "\\$&")

/** Request URLs on `path` (a `:name` segment matches any one segment), with an optional trailing slash and query. */
export const routePattern = (path: string) => {
  const segments = path.split("/").map((s) => (s.startsWith(":") ? "[^/]+" : escapeRegExp(s)))
  return new RegExp(`^${segments.join("/")}/?(\\?.*)?$`)
}
