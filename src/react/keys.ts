/** The first element of every query and mutation key the kit makes. */
export const QUERY_NAMESPACE = '@cabinet/tools-react'

export const queryKeys = {
  job: (fingerprint: string, tool: string, jobId: string) => [QUERY_NAMESPACE, fingerprint, 'job', tool, jobId] as const,
  artifact: (fingerprint: string, url: string) => [QUERY_NAMESPACE, fingerprint, 'artifact', url] as const,
  run: (fingerprint: string, tool: string) => [QUERY_NAMESPACE, fingerprint, 'run', tool] as const,
}
