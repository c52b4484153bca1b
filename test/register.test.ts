// @vitest-environment node
// `Register`, declared in a partner's app (test/register/app.tsx), types what the kit hands back
// and what it takes: checked as the partner's editor would, with the declaration in scope.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { partnerProgram, problemsIn, root } from './support/program.js'

describe('Register', () => {
  it('types results and inputs across the hooks, useJob, onResult, ResultView and the client', () => {
    const app = join(root, 'test/register/app.tsx')
    expect(problemsIn(partnerProgram([app]), app)).toBe('')
  }, 60_000)
})
