import { useState } from 'react'
import { ErrorNotice, useTool } from '../../src/components/index.js'

/** `useTool(id)`: the generic hook, for code that picks the tool at run time. */
export function TextWriter() {
  const writer = useTool('text/generate')
  const [prompt, setPrompt] = useState('Describe the neighbourhood')
  const text = (writer.result?.data as { result?: { text?: string }; text?: string } | undefined)
  const written = text?.result?.text ?? text?.text
  return (
    <div>
      <div className="ct-field">
        <label className="ct-label" htmlFor="writer-prompt">Brief</label>
        <input className="ct-input" id="writer-prompt" value={prompt} onChange={(event) => setPrompt(event.target.value)} />
      </div>
      <p>
        <button className="ct-button" type="button" onClick={() => writer.run({ prompt })}>
          Write
        </button>{' '}
        <span role="status">{writer.phase === 'idle' ? '' : `Phase: ${writer.phase}`}</span>
      </p>
      {written && <blockquote>{written}</blockquote>}
      {writer.error && <ErrorNotice error={writer.error} onRetry={writer.retry} />}
    </div>
  )
}
