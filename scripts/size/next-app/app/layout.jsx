// A server layout with nothing of the kit's: each page below is a client page of one import.
export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  )
}
