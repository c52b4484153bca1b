// The theming variables, read from the stylesheet itself so this table cannot fall out of date.
import allStyles from '../../src/components/styles/index.css?inline'
import themeCss from '../../src/components/styles/theme.css?raw'

interface Declaration {
  selector: string
  name: string
  value: string
}

/** Every `--ct-*` declaration of a stylesheet, with the selector it sits under. */
function declarations(css: string): Declaration[] {
  const found: Declaration[] = []
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '')
  for (const block of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = block[1]!.trim()
    for (const declaration of block[2]!.matchAll(/(--ct-[\w-]+)\s*:\s*([^;]+);/g)) {
      found.push({ selector, name: declaration[1]!, value: declaration[2]!.trim() })
    }
  }
  return found
}

const theme = declarations(themeCss)
const valueIn = (selectorPart: string, name: string) =>
  theme.find((entry) => entry.selector.includes(selectorPart) && entry.name === name)?.value

/** Global variables: each with its light and dark value (the same for shape, space and type). */
const globals = [...new Set(theme.map((entry) => entry.name))].map((name) => {
  const light = valueIn("[data-theme='light']", name) ?? valueIn(':where(:root)', name)
  const dark = valueIn(":where([data-theme='dark'])", name) ?? light
  return { name, light: light ?? '', dark: dark ?? '' }
})

/** Variables a component defines for itself (a notice's tone, a frame's height). */
const local = declarations(allStyles).filter((entry) => !globals.some((global) => global.name === entry.name))
const localNames = [...new Map(local.map((entry) => [entry.name, entry])).values()]

/** Used but never set: the components fall back (e.g. to the page's font) until a partner sets them. */
const unset = [...new Set([...allStyles.matchAll(/var\((--ct-[\w-]+)/g)].map((match) => match[1]!))].filter(
  (name) => !globals.some((global) => global.name === name) && !local.some((entry) => entry.name === name),
)

const isColour = (value: string) => /^(#|rgb|hsl)/.test(value)

function Swatch({ value }: { value: string }) {
  if (!isColour(value)) return null
  return (
    <span
      aria-hidden="true"
      style={{
        display: 'inline-block',
        width: '1em',
        height: '1em',
        marginInlineEnd: '0.5em',
        verticalAlign: '-0.15em',
        border: '1px solid #888',
        borderRadius: 3,
        background: value,
      }}
    />
  )
}

/** The table of the theme's variables, light and dark. */
export function ThemeVariables() {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Variable</th>
          <th scope="col">Light</th>
          <th scope="col">Dark</th>
        </tr>
      </thead>
      <tbody>
        {globals.map(({ name, light, dark }) => (
          <tr key={name}>
            <td>
              <code>{name}</code>
            </td>
            <td>
              <Swatch value={light} />
              <code>{light}</code>
            </td>
            <td>
              {dark === light ? (
                '='
              ) : (
                <>
                  <Swatch value={dark} />
                  <code>{dark}</code>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The variables components set for themselves, and those left for the partner to set. */
export function ComponentVariables() {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Variable</th>
          <th scope="col">Set on</th>
          <th scope="col">Default</th>
        </tr>
      </thead>
      <tbody>
        {localNames.map(({ name, selector, value }) => (
          <tr key={name}>
            <td>
              <code>{name}</code>
            </td>
            <td>
              <code>{selector.replace(/^:where\((.*)\)$/, '$1')}</code>
            </td>
            <td>
              <code>{value}</code>
            </td>
          </tr>
        ))}
        {unset.map((name) => (
          <tr key={name}>
            <td>
              <code>{name}</code>
            </td>
            <td>not set</td>
            <td>the page’s own value (e.g. its font)</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
