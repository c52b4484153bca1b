// Reading media types: one rule, for the client, the hooks, the components and the simulated service.

/** The media type without parameters, lower case: `text/html; charset=utf-8` → `text/html`. */
export function mediaType(type: string | null | undefined): string {
  return (type ?? '').split(';')[0]!.trim().toLowerCase()
}
