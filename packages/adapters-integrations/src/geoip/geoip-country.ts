// The visitor's country from a MaxMind database file (GeoLite2/GeoIP2 Country or City, .mmdb), for
// deployments without a CDN country header: opened once at start-up with the `maxmind` reader
// (MaxMind's own format library, with an LRU cache of lookups), read off the request path by the
// visit recorder.
import { StorageError } from "@folio/domain"
import { Effect } from "effect"
import maxmind, { type CountryResponse } from "maxmind"

/** ISO codes a database may hold that name no country (anonymous proxies, satellite providers). */
const NO_COUNTRY = /^(A1|A2|AP|EU|XX|ZZ)$/

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) as `1.2.3.4`. */
const plainAddress = (ip: string) => (ip.startsWith("::ffff:") && ip.includes(".") ? ip.slice(7) : ip)

/**
 * Opens the database at `path`; the lookup answers an upper-case ISO 3166-1 alpha-2 code, or
 * undefined (a private or unknown address, no country in the record, not an address at all).
 */
export const openCountryDatabase = (path: string) =>
  Effect.map(
    Effect.tryPromise({
      try: () => maxmind.open<CountryResponse>(path, { cache: { max: 10_000 } }),
      catch: (cause) => new StorageError({ message: `cannot open the GeoIP database at ${path}`, cause })
    }),
    (reader) =>
      (ip: string): string | undefined => {
        const address = plainAddress(ip)
        if (!maxmind.validate(address)) return undefined
        try {
          const code = reader.get(address)?.country?.iso_code?.toUpperCase()
          return code !== undefined && /^[A-Z]{2}$/.test(code) && !NO_COUNTRY.test(code) ? code : undefined
        } catch {
          return undefined
        }
      }
  )
