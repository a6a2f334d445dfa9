/**
 * What the bound address means for security: whether it is loopback (reachable only from this
 * machine), and by which host names a request may address the server. The second is the
 * DNS-rebinding defence: a web page on evil.example that rebinds its name to 127.0.0.1 still
 * sends `Host: evil.example`, which no server of ours accepts.
 */
import { isIP } from "node:net"
import { hostname, networkInterfaces } from "node:os"

export const DEFAULT_HOST = "127.0.0.1"
/**
 * The port the other surfaces assume (MEMLEDGER_URL examples, the SDK). Apache Spark's
 * standalone master also defaults to 7077: whoever runs both passes --port.
 */
export const DEFAULT_PORT = 7077

export const isLoopbackHost = (host: string): boolean => {
  const h = unbracket(host.toLowerCase())
  if (h === "localhost" || h === "::1") return true
  return isIP(h) === 4 && h.startsWith("127.")
}

/** 0.0.0.0 and :: listen on every interface. */
export const isWildcardHost = (host: string): boolean => ["0.0.0.0", "::", "[::]"].includes(host)

/** `host` as it appears in a URL or a Host header: IPv6 in brackets, lower-case. */
export const urlHost = (host: string): string => {
  const h = unbracket(host.toLowerCase())
  return isIP(h) === 6 ? `[${h}]` : h
}

/**
 * The names (in URL form, without port) that a request's Host and Origin may carry: the bound
 * host; for loopback also localhost, 127.0.0.1 and [::1]; for a wildcard bind also this
 * machine's addresses and host name; plus any `--allow-host` names (a DNS name or a proxy's).
 */
export const acceptedHostNames = (host: string, allowHosts: ReadonlyArray<string> = []): ReadonlySet<string> => {
  const names = new Set<string>([urlHost(host), ...allowHosts.map(urlHost)])
  if (isLoopbackHost(host) || isWildcardHost(host)) for (const n of ["localhost", "127.0.0.1", "[::1]"]) names.add(n)
  if (isWildcardHost(host)) {
    names.add(urlHost(hostname()))
    for (const addresses of Object.values(networkInterfaces())) {
      for (const a of addresses ?? []) names.add(urlHost(a.address.split("%")[0]!))
    }
  }
  return names
}

const unbracket = (host: string) => (host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host)
