/** Example source as a partner writes it: imports from the package, not from this repository's files. */
export function asPublished(source: string): string {
  return source
    .replace(/(['"])(?:\.\.\/)+src\/mock\/index\.js\1/g, "'@cabinet/tools-react/mock'")
    .replace(/(['"])(?:\.\.\/)+src\/(?:react|components)\/index\.js\1/g, "'@cabinet/tools-react'")
}
