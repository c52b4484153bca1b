// What a phase means, in one place for every layer.

/** Whether a phase is an end (`succeeded` or `failed`): nothing more will happen to that job. */
export function isTerminal(phase: string | undefined): phase is 'succeeded' | 'failed' {
  return phase === 'succeeded' || phase === 'failed'
}

/** Whether a run is under way (`submitting`, `pending` or `running`): the moment to show progress and hold a second submit. */
export function isBusy(phase: string | undefined): phase is 'submitting' | 'pending' | 'running' {
  return phase === 'submitting' || phase === 'pending' || phase === 'running'
}
