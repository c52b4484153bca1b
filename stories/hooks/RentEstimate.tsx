import { useState, type FormEvent } from 'react'
import { ErrorNotice, useValuationRent } from '../../src/components/index.js'

/** A hand-made form on `useValuationRent`: the hook runs the call, the page draws the rest. */
export function RentEstimate() {
  const rent = useValuationRent()
  const [city, setCity] = useState('Berlin')
  const [area, setArea] = useState('72')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    rent.run({ propertyCategory: 'apartment', totalArea: Number(area), city })
  }
  const answer = rent.result?.data as { rent?: { monthly: number; currency: string } } | undefined

  return (
    <form onSubmit={submit} style={{ display: 'grid', gap: '0.75rem', maxWidth: '24rem' }}>
      <div className="ct-field">
        <label className="ct-label" htmlFor="rent-city">City</label>
        <input className="ct-input" id="rent-city" value={city} onChange={(event) => setCity(event.target.value)} />
      </div>
      <div className="ct-field">
        <label className="ct-label" htmlFor="rent-area">Area, m²</label>
        <input className="ct-input" id="rent-area" inputMode="decimal" value={area} onChange={(event) => setArea(event.target.value)} />
      </div>
      <p style={{ margin: 0 }}>
        <button className="ct-button" type="submit" disabled={rent.phase === 'submitting'}>
          Estimate the rent
        </button>
      </p>
      <p role="status" style={{ margin: 0 }}>
        {rent.phase === 'submitting' && 'Estimating…'}
        {answer?.rent &&
          `About ${new Intl.NumberFormat('en', { style: 'currency', currency: answer.rent.currency, maximumFractionDigits: 0 }).format(answer.rent.monthly)} a month.`}
      </p>
      {rent.error && <ErrorNotice error={rent.error} onRetry={rent.retry} />}
    </form>
  )
}
