import { useArtifact, useFormat } from '../../src/components/index.js'

/** `useArtifact`: a result link downloaded with the key, as an object URL to use anywhere. */
export function ArtifactPreview({ url }: { url: string }) {
  const file = useArtifact(url)
  const format = useFormat()
  if (file.error) return <p role="alert">The file could not be loaded ({file.error.kind}).</p>
  if (file.isLoading || !file.objectUrl || !file.blob) return <p role="status">Downloading…</p>
  return (
    <figure style={{ margin: 0 }}>
      {file.kind === 'image' && <img src={file.objectUrl} alt="The enhanced photo" width={160} />}
      <figcaption>
        A {file.kind} of {format.bytes(file.blob.size)} ({file.blob.type}).
      </figcaption>
    </figure>
  )
}
