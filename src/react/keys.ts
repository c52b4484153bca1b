/** The first element of every query and mutation key the kit makes. */
export const QUERY_NAMESPACE = '@cabinet/tools-react'

/** A query or mutation key of the kit: its namespace, the key's fingerprint, then what it names. */
export const queryKey = (fingerprint: string, ...path: string[]) => [QUERY_NAMESPACE, fingerprint, ...path]
